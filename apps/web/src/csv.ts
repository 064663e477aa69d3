/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field quoted when it
 * holds a comma, a double quote, CR or LF, its quotes doubled. Spreadsheets open it as it is.
 */
export type CsvValue = string | number | null;

const field = (value: CsvValue): string => {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const toCsv = (header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string =>
  [header, ...rows].map((row) => `${row.map(field).join(",")}\r\n`).join("");

/** `gmi-chrono-trigger-history-2026-11-27.csv`: the parts lower-cased, each run of other characters one hyphen. */
export const csvFileName = (...parts: string[]): string =>
  `${["gmi", ...parts]
    .map((part) =>
      part
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    )
    .filter(Boolean)
    .join("-")}.csv`;

/** Hands the text to the browser as a file download (no request: the data is already here). */
export const downloadCsv = (name: string, text: string): void => {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (accented titles).
  const url = URL.createObjectURL(new Blob(["\uFEFF", text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
