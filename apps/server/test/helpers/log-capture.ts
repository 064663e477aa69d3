import { appendFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";

/**
 * The server log lines of a test run, kept for the key-material scan (test/log-scan.ts): the
 * integration project's global setup names a folder in this variable, every app a test starts
 * (helpers/app.ts) logs into it at the most verbose level, and servers started as processes have
 * their JSON log lines appended to it. The scan reads them all at the end of the run.
 */
export const LOG_DIR_VARIABLE = "GMI_TEST_LOG_DIR";

/** A key as the service makes them (domain/auth/api-key.ts), under either prefix a key could carry. */
const KEY_MATERIAL = /gmi_(?:live|test)_[A-Za-z0-9_-]{43}/;

/** The lines of `text` that hold key material, numbered from 1. */
export const linesWithKeys = (text: string): Array<{ line: number; text: string }> =>
  text.split("\n").flatMap((line, i) => (KEY_MATERIAL.test(line) ? [{ line: i + 1, text: line }] : []));

const fileOf = (kind: string): string | null => {
  const dir = process.env[LOG_DIR_VARIABLE];
  return dir ? path.join(dir, `${kind}-${process.pid}.log`) : null;
};

let appLog: pino.DestinationStream | null | undefined;

/**
 * Where this test process's apps write their logs for the scan, or null when no scan runs. One
 * file per process, written synchronously, so nothing is lost when the process ends.
 */
export const scannedAppLog = (): pino.DestinationStream | null => {
  if (appLog === undefined) {
    const file = fileOf("apps");
    appLog = file ? pino.destination({ dest: file, sync: true }) : null;
  }
  return appLog;
};

/**
 * For one server process: keeps the JSON log lines it prints for the scan, whole lines however its
 * output is cut into chunks. Its banner is not a log line (in development it shows the demo keys
 * once, as `gmi keys create` shows a new key; a production server makes none).
 */
export const childOutputScanner = (): ((chunk: Buffer | string) => void) => {
  const file = fileOf("processes");
  let partial = "";
  return (chunk) => {
    if (!file) return;
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    const logged = lines.filter((line) => line.startsWith("{"));
    if (logged.length > 0) appendFileSync(file, `${logged.join("\n")}\n`);
  };
};
