import type { Clock } from "../clock.js";
import { BoundedMap } from "./bounded-map.js";
import type { DataVersion, VersionState } from "./data-version.js";

/** An answer as kept: its body, and that body serialized once. */
export type KeptAnswer<Body> = { readonly body: Body; readonly json: string };

/**
 * Whole answers to reads, by a key that holds everything an answer depends on besides the data
 * (built by its caller: `answerKeyOf`, src/http-request.ts).
 */
export type ResponseCache = {
  /** The answer under `key`: kept, or made by `build` when no fresh copy is kept. */
  answer<Body>(key: string, build: () => Promise<Body>): Promise<KeptAnswer<Body>>;
  /**
   * The kept serialization under `key` when a fresh one is kept, else null (nothing is built): lets
   * a hook answer before validation and the handler (plugins/early-answers.ts). An answer is kept
   * only after its URL passed validation and was served as a 200, and the URL is in its key, so the
   * same request would validate and be answered the same way. Given at once unless the data version
   * must be read to tell (once a second at most): the hook then costs no promise.
   */
  early(key: string): string | null | Promise<string | null>;
};

/**
 * Keeping answers longer than ttlMs: `version` fingerprints the data answers are built from
 * (caches/data-version.ts); an answer is kept up to `maxAgeMs` while the fingerprint stays the same.
 * `settleMs`: how long the caches under the answers (catalog, latest snapshot) may still give the
 * data of before a change, so an answer built that soon after the fingerprint moved is kept for
 * ttlMs only.
 */
export type Revalidation = { version: DataVersion; maxAgeMs: number; settleMs: number };

type Entry = KeptAnswer<unknown> & { until: number; version: string | null; expires: number };

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

  const answer = async <Body>(key: string, build: () => Promise<Body>): Promise<KeptAnswer<Body>> => {
    if (ttlMs <= 0) {
      const body = await build();
      return { body, json: JSON.stringify(body) };
    }
    const now = clock.now();
    const version = revalidation ? await revalidation.version.current() : null;
    let entry = entries.get(key);
    if (!entry || !isFresh(entry, now, version)) {
      const body = await build();
      const settled =
        version !== null && revalidation !== undefined && now >= version.since + revalidation.settleMs;
      entry = {
        body,
        json: JSON.stringify(body),
        until: now + ttlMs,
        version: settled ? version.value : null,
        expires: now + (revalidation?.maxAgeMs ?? ttlMs),
      };
      // The body object is kept beside its JSON: about twice the JSON's bytes.
      entries.set(key, entry, entry.json.length * 2);
    }
    // Kept for this key's builds only: the same Body.
    return entry as KeptAnswer<Body>;
  };

  const early = (key: string): string | null | Promise<string | null> => {
    if (ttlMs <= 0 || entries.size === 0) return null;
    const entry = entries.get(key);
    if (!entry) return null;
    const now = clock.now();
    if (entry.until > now) return entry.json;
    if (!revalidation) return null;
    const recent = revalidation.version.recent();
    if (recent) return isFresh(entry, now, recent) ? entry.json : null;
    return revalidation.version
      .current()
      .then((version) => (isFresh(entry, now, version) ? entry.json : null));
  };

  return { answer, early };
};
