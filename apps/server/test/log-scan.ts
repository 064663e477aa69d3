import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LOG_DIR_VARIABLE, linesWithKeys } from "./helpers/log-capture.js";

/**
 * Vitest global setup of the integration project: no API key in any server log line of the run.
 * Setup names a folder (test/helpers/log-capture.ts) that every app and server process of the
 * tests logs into; teardown reads every line, fails the run if one holds key material, and says
 * how many lines it read. docs/security.md, "What is never logged".
 */
let dir: string | null = null;

export function setup(): void {
  dir = mkdtempSync(path.join(tmpdir(), "gmi-test-logs-"));
  process.env[LOG_DIR_VARIABLE] = dir;
}

export function teardown(): void {
  if (!dir) return;
  let lines = 0;
  const found: string[] = [];
  for (const file of readdirSync(dir)) {
    const text = readFileSync(path.join(dir, file), "utf8");
    lines += text.split("\n").length - 1;
    for (const hit of linesWithKeys(text)) found.push(`${file}:${hit.line}: ${hit.text.slice(0, 300)}`);
  }
  rmSync(dir, { recursive: true, force: true });
  if (found.length > 0) {
    // Vitest reports an error thrown here but exits with the tests' status: this makes the run fail.
    process.exitCode = 1;
    throw new Error(
      `API key material in ${found.length} server log line(s) of this run:\n${found.slice(0, 20).join("\n")}`,
    );
  }
  process.stdout.write(`log scan: ${lines} server log lines of this run, no API key in any\n`);
}
