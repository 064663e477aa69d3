import { runCli } from "./run.js";

// Exit explicitly once the command is done: the WebAssembly schema engine leaves a timer behind
// that would otherwise hold `gmi migrate` open for seconds after it finished.
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`gmi: ${String(error)}\n`);
    process.exit(1);
  },
);
