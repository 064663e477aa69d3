import { runCli } from "./run.js";

// `pnpm --filter` runs the command in apps/server; file arguments (`gmi import events.ndjson`) are
// meant from where the operator typed it, which pnpm passes as INIT_CWD.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);

// Exit explicitly once the command is done: the WebAssembly schema engine leaves a timer behind
// that would otherwise hold `gmi migrate` open for seconds after it finished.
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`gmi: ${String(error)}\n`);
    process.exit(1);
  },
);
