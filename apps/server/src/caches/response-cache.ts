import type { Clock } from "../clock.js";
import { BoundedMap } from "./bounded-map.js";
import type { DataVersion, VersionState } from "./data-version.js";

/**
 * An answer as kept: its body serialized once, as the UTF-8 bytes sent. Bytes, not the body object
 * and its JSON: a Buffer's bytes live outside V8's heap, so the garbage collector neither copies
 * nor marks thousands of kept answers (with the body objects, every young-generation collection
 * promoted the answers built since the last one: 4-17 ms pauses every quarter second in
 * bench:wide), the budget counts what is held, and no send encodes the JSON to UTF-8 again.
 */
export type KeptAnswer = Buffer;

/** The content type answers are sent with, kept or built. */
export const ANSWER_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Whole answers to reads, by a key that holds everything an answer depends on besides the data
 * (built by its caller: `answerKeyOf`, src/http-request.ts).
 */
export type ResponseCache = {
  /** The answer under `key`: kept, or made by `build` when no fresh copy is kept. */
  answer(key: string, build: () => Promise<unknown>): Promise<KeptAnswer>;
  /**
   * The kept answer under `key` when a fresh one is kept, else null (nothing is built): lets
   * a hook answer before validation and the handler (plugins/early-answers.ts). An answer is kept
   * only after its URL passed validation and was served as a 200, and the URL is in its key, so the
   * same request would validate and be answered the same way. Given at once unless the data version
   * must be read to tell (once a second at most): the hook then costs no promise.
   */
  early(key: string): KeptAnswer | null | Promise<KeptAnswer | null>;
};

/**
 * Keeping answers longer than ttlMs: `version` fingerprints the data answers are built from
 * (caches/data-version.ts); an answer is kept up to `maxAgeMs` while the fingerprint stays the same.
 * `settleMs`: how long the caches under the answers (catalog, latest snapshot) may still give the
 * data of before a change, so an answer built that soon after the fingerprint moved is kept for
 * ttlMs only.
 */
export type Revalidation = { version: DataVersion; maxAgeMs: number; settleMs: number };

type Entry = { bytes: KeptAnswer; until: number; version: string | null; expires: number };

const serialized = (body: unknown): KeptAnswer => Buffer.from(JSON.stringify(body));

/**
 * Whole answers to identical reads, serialized once. Clients ask for the same pages and games over
 * and over, and building and serializing an answer costs more than all the rest we do for a
 * request (bench:http, bench:traffic). Keys, limits and metering are still checked per request,
 * before the handler; only a 200 is kept (a handler that fails throws). An answer is fresh for
 * `ttlMs`, and with `revalidation` up to its maxAgeMs as long as the data has not changed: data
 * changes show within about ttlMs either way, and the long tail of a skewed mix (thousands of
 * distinct URLs, each asked now and then) is not rebuilt every second. A cursor that expires is
 * honoured up to the answer's age longer. ttlMs 0: off (every answer built and serialized).
 * Bounded by count and by bytes (bench:soak): a count cap alone let large pages hold hundreds of MB.
 */
export const responseCache = (
  clock: Clock,
  ttlMs: number,
  options: { maxEntries?: number; maxBytes?: number; revalidation?: Revalidation } = {},
): ResponseCache => {
  const entries = new BoundedMap<string, Entry>(
    options.maxEntries ?? 10_000,
    options.maxBytes ?? 16 * 1_048_576,
  );
  const { revalidation } = options;
  const isFresh = (entry: Entry, now: number, version: VersionState | null) =>
    entry.until > now || (entry.version !== null && entry.version === version?.value && entry.expires > now);

  const answer = async (key: string, build: () => Promise<unknown>): Promise<KeptAnswer> => {
    if (ttlMs <= 0) return serialized(await build());
    const now = clock.now();
    const version = revalidation ? await revalidation.version.current() : null;
    let entry = entries.get(key);
    if (!entry || !isFresh(entry, now, version)) {
      const body = await build();
      const settled =
        version !== null && revalidation !== undefined && now >= version.since + revalidation.settleMs;
      entry = {
        bytes: serialized(body),
        until: now + ttlMs,
        version: settled ? version.value : null,
        expires: now + (revalidation?.maxAgeMs ?? ttlMs),
      };
      entries.set(key, entry, entry.bytes.length);
    }
    return entry.bytes;
  };

  const early = (key: string): KeptAnswer | null | Promise<KeptAnswer | null> => {
    if (ttlMs <= 0 || entries.size === 0) return null;
    const entry = entries.get(key);
    if (!entry) return null;
    const now = clock.now();
    if (entry.until > now) return entry.bytes;
    if (!revalidation) return null;
    const recent = revalidation.version.recent();
    if (recent) return isFresh(entry, now, recent) ? entry.bytes : null;
    return revalidation.version
      .current()
      .then((version) => (isFresh(entry, now, version) ? entry.bytes : null));
  };

  return { answer, early };
};
