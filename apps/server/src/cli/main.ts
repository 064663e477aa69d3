import { runCli } from "./run.js";

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`gmi: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
