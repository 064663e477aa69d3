import type { FastifyInstance } from "fastify";
import type { Config } from "./config.js";

/** Listens and returns the base URL clients should use. */
export const listen = async (
  app: FastifyInstance,
  config: Pick<Config, "port" | "host" | "publicBaseUrl">,
) => {
  const address = await app.listen({ port: config.port, host: config.host });
  return (
    config.publicBaseUrl ?? address.replace("://0.0.0.0", "://127.0.0.1").replace("://[::]", "://127.0.0.1")
  );
};

/**
 * A signal again within this long is the same one passed on: a terminal's Ctrl-C reaches every
 * process of its foreground group, and a wrapper in it (`pnpm start`) sends it on to its child too.
 */
const RELAYED_WITHIN_MS = 1_000;

/**
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting connections and let in-flight requests
 * finish (fastify.close), then release the rest (`cleanup`: usage flush, Redis, database), and exit
 * 0. A second signal, after RELAYED_WITHIN_MS, exits at once (1).
 */
export const closeOnSignals = (app: FastifyInstance, cleanup: () => Promise<void>) => {
  let closing: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing !== null) {
      if (performance.now() - closing < RELAYED_WITHIN_MS) return;
      app.log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    closing = performance.now();
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    app
      .close()
      .then(cleanup)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
};
