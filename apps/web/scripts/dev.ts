import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createServer, type ViteDevServer } from "vite";

/**
 * `pnpm dev:web [--mock] [--port N] [--host H]`: Vite's dev server for the dashboard. With `--mock`
 * it runs in Vite's `mock` mode (vite.config.ts): no proxy to a server, and the page starts msw's
 * service worker with the SDK's handlers (src/mock/), so a frontend developer needs no server, no
 * database and no key. The end-to-end test of mock mode starts it through `startDevServer`.
 */
export const startDevServer = async (options: {
  mock: boolean;
  port?: number;
  host?: string;
}): Promise<ViteDevServer> => {
  const server = await createServer({
    configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
    root: fileURLToPath(new URL("..", import.meta.url)),
    mode: options.mock ? "mock" : "development",
    server: {
      ...(options.port === undefined ? {} : { port: options.port, strictPort: options.port !== 0 }),
      ...(options.host === undefined ? {} : { host: options.host }),
    },
  });
  await server.listen();
  return server;
};

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      mock: { type: "boolean", default: false },
      port: { type: "string" },
      host: { type: "string" },
    },
  });
  const server = await startDevServer({
    mock: values.mock,
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
  });
  server.printUrls();
  if (values.mock)
    console.log(
      "  Mock mode: the API is msw in this browser; ?scenario=rate-limited (or the panel) picks a failure.",
    );
  server.bindCLIShortcuts({ print: true });
}
