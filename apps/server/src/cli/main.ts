import { runCli } from "./run.js";

// `pnpm gmi` runs the command in apps/server, but file arguments (`gmi import events.ndjson`) are
// written from the repository's root, where the operator runs pnpm: pnpm passes it as INIT_CWD
// (trusted only when pnpm started this very script; a child process inherits a stale INIT_CWD from
// whatever pnpm ran its parent).
if (process.env.npm_lifecycle_event === "gmi" && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);

// Exit explicitly once the command is done: the WebAssembly schema engine leaves a timer behind
// that would otherwise hold `gmi migrate` open for seconds after it finished.
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`gmi: ${String(error)}\n`);
    process.exit(1);
  },
);
