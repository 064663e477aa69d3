import { fileURLToPath } from "node:url";
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

const valueOf = (args: string[], name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};

if (import.meta.main) {
  const args = process.argv.slice(2);
  const port = valueOf(args, "--port");
  const server = await startDevServer({
    mock: args.includes("--mock"),
    ...(port === undefined ? {} : { port: Number(port) }),
    ...(valueOf(args, "--host") === undefined ? {} : { host: valueOf(args, "--host") }),
  });
  server.printUrls();
  if (args.includes("--mock"))
    console.log(
      "  Mock mode: the API is msw in the browser; ?scenario=rate-limited (or the panel) picks a failure.",
    );
  server.bindCLIShortcuts({ print: true });
}
