import type { BatchMeta, ErrorBody } from "@gmi/contract";
import type { ParsedElement } from "./requests.js";

export type BatchItem<Data> = { status: number; data: Data } | { status: number; error: ErrorBody };

/** Per-item 422 of an invalid element (the error envelope's content). */
const INVALID_ELEMENT_STATUS = 422;

/** The distinct ids to look up, so an id asked twice is read once. */
export const idsOf = (elements: readonly ParsedElement[]): number[] => [
  ...new Set(elements.flatMap((e) => (e.ok ? [e.id] : []))),
];

/** One item per element, in request order; `dataOf` gives a found row or `{game_id, found: false}`. */
export const buildItems = <Data>(
  elements: readonly ParsedElement[],
  dataOf: (id: number) => Data,
): BatchItem<Data>[] =>
  elements.map((e) =>
    e.ok ? { status: 200, data: dataOf(e.id) } : { status: INVALID_ELEMENT_STATUS, error: e.error },
  );

/**
 * `meta.batch` and the HTTP status: 200 when every item is 2xx, else 207 (spec: "207 when at least
 * one item failed", which includes a batch where every item failed: the request itself was served).
 */
export const summarize = (items: readonly BatchItem<unknown>[]): { status: 200 | 207; batch: BatchMeta } => {
  const succeeded = items.filter((item) => item.status >= 200 && item.status < 300).length;
  const failed = items.length - succeeded;
  return { status: failed === 0 ? 200 : 207, batch: { total: items.length, succeeded, failed } };
};

/**
 * The JSON of a batch answer, byte for byte `JSON.stringify({ data: items, meta })`, with each
 * item's data serialized by `jsonOf`: a found game's JSON is made once and reused by every batch
 * that asks for it (routes/batch.ts), so a 100-item answer is mostly joined, not serialized.
 */
export const batchJson = <Data>(
  items: readonly BatchItem<Data>[],
  meta: unknown,
  jsonOf: (data: Data) => string,
): string => {
  let json = '{"data":[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as BatchItem<Data>;
    if (i > 0) json += ",";
    json += "data" in item ? `{"status":${item.status},"data":${jsonOf(item.data)}}` : JSON.stringify(item);
  }
  return `${json}],"meta":${JSON.stringify(meta)}}`;
};
