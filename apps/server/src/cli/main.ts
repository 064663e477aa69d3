import { runCli } from "./run.js";

// File arguments (`gmi import events.ndjson`) are meant from the repository's root, where the
// operator runs `./scripts/pnpm gmi` (the root script runs this file there); `pnpm --filter
// @gmi/server gmi` would run it in apps/server, so we go back to where pnpm was started (INIT_CWD,
// trusted only when pnpm started this very script: a child process inherits a stale one).
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
