/**
 * A one-line progress bar on stderr when it is a terminal; silent otherwise (CI logs and pipes get
 * the summary line only). Redrawn at most every 100 ms.
 */
export const progressBar = (label: string, stream: NodeJS.WriteStream = process.stderr) => {
  let last = 0;
  const started = performance.now();
  return {
    update(done: number, total: number | null, unit: string) {
      if (!stream.isTTY) return;
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const rate = Math.round(done / Math.max(0.001, (now - started) / 1000));
      const width = 30;
      const bar =
        total && total > 0
          ? `[${"#".repeat(Math.round((width * Math.min(done, total)) / total)).padEnd(width, ".")}] ${Math.floor((100 * Math.min(done, total)) / total)}%`
          : "";
      stream.write(
        `\r${label} ${bar} ${done.toLocaleString("en")} ${unit} (${rate.toLocaleString("en")}/s)\x1b[K`,
      );
    },
    done() {
      if (stream.isTTY) stream.write("\r\x1b[K");
    },
  };
};
