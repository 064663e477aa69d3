export type ProgressStream = { isTTY?: boolean; write(text: string): unknown };

export type ProgressOptions = {
  stream?: ProgressStream;
  /** Off a terminal: how often a progress line is written (none for work shorter than this). */
  everyMs?: number;
  now?: () => number;
};

const n = (value: number) => value.toLocaleString("en");

/**
 * Progress on stderr (stdout stays for results and --json). On a terminal, a one-line bar redrawn
 * at most every 100 ms; elsewhere (CI logs, pipes, `docker logs`) a plain line every 5 s, so a long
 * import shows it is alive without flooding the log.
 */
export const progressBar = (label: string, options: ProgressOptions = {}) => {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const tty = Boolean(stream.isTTY);
  const every = tty ? 100 : (options.everyMs ?? 5_000);
  const started = now();
  let last = started;
  let drawn = false;
  return {
    update(done: number, total: number | null, unit: string) {
      const at = now();
      if (at - last < every) return;
      last = at;
      const rate = Math.round(done / Math.max(0.001, (at - started) / 1000));
      const known = total !== null && total > 0;
      const percent = known ? Math.floor((100 * Math.min(done, total)) / total) : 0;
      if (!tty) {
        const of = known ? ` of ${n(total)}` : "";
        const share = known ? ` (${percent}%)` : "";
        stream.write(`${label}: ${n(done)}${of} ${unit}${share}, ${n(rate)}/s\n`);
        return;
      }
      const width = 30;
      const bar = known
        ? `[${"#".repeat(Math.round((width * Math.min(done, total)) / total)).padEnd(width, ".")}] ${percent}%`
        : "";
      stream.write(`\r${label} ${bar} ${n(done)} ${unit} (${n(rate)}/s)\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write("\r\x1b[K");
    },
  };
};
