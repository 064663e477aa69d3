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
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting connections and let in-flight requests
 * finish (fastify.close), then release the rest (`cleanup`: usage flush, Redis, database). A second
 * signal exits at once.
 */
export const closeOnSignals = (app: FastifyInstance, cleanup: () => Promise<void>) => {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    closing = true;
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
