// `prisma generate` offline: the CLI insists on locating a native schema engine at start (and would
// download one from a host this machine cannot reach) although generate does not use it. Any
// existing file satisfies the check.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cwd = fileURLToPath(new URL("..", import.meta.url));
execFileSync("prisma", ["generate"], {
  cwd,
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
