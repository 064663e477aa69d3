import { parseArgs } from "node:util";
import type { Database } from "../../db/open.js";
import { DEFAULT_MAX_ERRORS, ImportAborted, type ImportReport, importFile } from "../../jobs/import.js";
import { CliError, type CliIo } from "../io.js";
import { progressBar } from "../progress.js";

type ImportContext = { db: Database; io: CliIo; json: boolean };

const maxErrorsOf = (value: string | undefined): number => {
  if (value === undefined) return DEFAULT_MAX_ERRORS;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new CliError(
      "usage",
      `--max-errors must be a whole number (0 refuses any bad line), got "${value}"`,
    );
  return n;
};

const summaryOf = (file: string, report: ImportReport) => {
  const seconds = report.durationMs / 1000;
  return {
    file,
    lines: report.lines,
    new: report.new,
    duplicates: report.duplicates,
    removals_recorded: report.removalsRecorded,
    rejected: report.rejected,
    counts: report.counts,
    errors: report.errors,
    duration_ms: Math.round(report.durationMs),
    lines_per_second: Math.round(report.lines / Math.max(0.001, seconds)),
  };
};

const n = (value: number) => value.toLocaleString("en");

const summaryLine = (s: ReturnType<typeof summaryOf>) => {
  const catalog = s.counts.console + s.counts.game;
  const removals = s.removals_recorded > 0 ? ` (${n(s.removals_recorded)} recording an alert's removal)` : "";
  // Only new events and recorded removals change what a rollup computes (catalog lines are read live).
  const forRollup = s.new + s.removals_recorded > 0 ? "; the next rollup includes them" : "";
  return (
    `${s.file}: ${n(s.lines)} lines: ${n(s.new)} new events, ${n(s.duplicates)} duplicates${removals}, ` +
    `${n(s.rejected)} rejected` +
    (catalog > 0 ? `, ${n(s.counts.console)} consoles and ${n(s.counts.game)} games upserted` : "") +
    ` in ${(s.duration_ms / 1000).toFixed(1)} s (${n(s.lines_per_second)} lines/s)${forRollup}\n`
  );
};

const parseImportArgs = (args: string[]) => {
  try {
    return parseArgs({
      args,
      options: { "max-errors": { type: "string" }, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CliError("usage", (error as Error).message);
  }
};

/**
 * `gmi import [--max-errors N] FILE [FILE...]`: each file in its own transaction, `-` for standard
 * input. Rejected lines are reported as `FILE:LINE: reason` on stderr as they are found; past
 * `--max-errors` of them the file is rolled back whole (files before it stay loaded).
 */
export const importCommand = async (args: string[], ctx: ImportContext) => {
  const parsed = parseImportArgs(args);
  const maxErrors = maxErrorsOf(parsed.values["max-errors"]);
  const files = parsed.positionals;
  if (files.length === 0)
    throw new CliError("usage", "import needs at least one FILE (or - for standard input)");
  const results = [];
  for (const file of files) {
    const bar = progressBar(`importing ${file}`);
    try {
      const report = await importFile(
        ctx.db,
        file,
        (p) => bar.update(p.totalBytes ? p.bytes : p.lines, p.totalBytes, p.totalBytes ? "bytes" : "lines"),
        undefined,
        {
          maxErrors,
          onReject: (e) => {
            // On a terminal the line first clears the progress bar it would otherwise run into.
            const clear = process.stderr.isTTY ? "\r\x1b[K" : "";
            if (!ctx.json) ctx.io.stderr(`${clear}${file}:${e.line}: ${e.reason}\n`);
          },
        },
      );
      bar.done();
      const summary = summaryOf(file, report);
      results.push(summary);
      if (!ctx.json) ctx.io.stdout(summaryLine(summary));
    } catch (error) {
      bar.done();
      if (error instanceof ImportAborted) {
        throw new CliError(
          "invalid_state",
          `${file}: ${error.message} (raise --max-errors to load it without its bad lines)`,
        );
      }
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        throw new CliError("not_found", `${file}: no such file`);
      throw error;
    }
  }
  return { files: results };
};
