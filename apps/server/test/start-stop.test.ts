import { expect, it } from "vitest";
import { startServerProcess } from "./helpers/processes.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

it("`pnpm start` stopped with Ctrl-C (SIGINT to its process group) drains and exits 0, quietly", async () => {
  const server = await startServerProcess(
    {
      DATABASE_URL: db().url,
      NODE_ENV: "production",
      CURSOR_SECRET: "test-cursor-secret-0123456789abcdef",
      LOG_LEVEL: "info",
    },
    180_000,
    "pnpm start",
  );
  const signalled = new Promise<NodeJS.Signals | null>((done) =>
    server.child.once("exit", (_code, signal) => done(signal)),
  );
  process.kill(-(server.child.pid as number), "SIGINT");
  expect(await server.exited, server.output()).toBe(0);
  expect(await signalled).toBeNull();
  expect(server.output()).toContain("shutting down: finishing in-flight requests");
  // Neither pnpm's failure report nor the server's "second signal" forced exit.
  expect(server.output()).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed|second signal/);
}, 240_000);
