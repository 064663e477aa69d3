import type { FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import type { DataVersion, VersionState } from "../data/data-version.js";
import { BoundedMap } from "../domain/cache/bounded-map.js";
import { authOf } from "../plugins/auth.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** The two reply methods used (ts-rest hands handlers a reply typed against Fastify 4's generics). */
type Reply = {
  type(contentType: string): unknown;
  serializer(serialize: (payload: unknown) => string): unknown;
};

/** Answers one read: `build` makes its body when no fresh copy of the answer is kept. */
export type ResponseCache = {
  <Body>(request: FastifyRequest, reply: Reply, build: () => Promise<Body>): Promise<Body>;
  /**
   * The kept serialization of this request's answer when a fresh one is kept, else null (nothing
   * is built): lets a hook answer before validation and the handler (plugins/early-answers.ts).
   * An answer is kept only after its URL passed validation and was served as a 200, and the URL is
   * in its key, so the same request would validate and be answered the same way. Given at once
   * unless the data version must be read to tell (once a second at most): the hook then costs no
   * promise.
   */
  early(request: FastifyRequest): string | null | Promise<string | null>;
};

/**
 * Keeping answers longer than ttlMs: `version` fingerprints the data answers are built from
 * (data/data-version.ts); an answer is kept up to `maxAgeMs` while the fingerprint stays the same.
 * `settleMs`: how long the caches under the answers (catalog, latest snapshot) may still give the
 * data of before a change, so an answer built that soon after the fingerprint moved is kept for
 * ttlMs only.
 */
export type Revalidation = { version: DataVersion; maxAgeMs: number; settleMs: number };

/** What an answer depends on besides its URL and the data: its links' origin, the caller's page-size cap. */
type Variant = { pageCap: number; protocol: string; host: string };

type Entry = Variant & {
  body: unknown;
  json: string;
  until: number;
  version: string | null;
  expires: number;
};

/** Answers kept per URL at most: one per page-size cap (plan) and origin that asked for it. */
const VARIANTS_PER_URL = 16;

const variantOf = (request: FastifyRequest): Variant => ({
  pageCap: authOf(request).plan.max_page_size,
  protocol: request.protocol,
  host: request.host,
});

const sameVariant = (a: Variant, b: Variant) =>
  a.pageCap === b.pageCap && a.host === b.host && a.protocol === b.protocol;

/**
 * Whole answers to identical reads, serialized once. Clients ask for the same pages and games over
 * and over, and building and serializing an answer costs more than all the rest we do for a
 * request (bench:http, bench:traffic). An answer is kept under everything it depends on besides the
 * data: the URL (path and query), the origin its links point to, and the caller's page-size cap.
 * Keys, limits and metering are still checked per request, before the handler; only a 200 is kept
 * (a handler that fails throws). An answer is fresh for `ttlMs`, and with `revalidation` up to its
 * maxAgeMs as long as the data has not changed: data changes show within about ttlMs either way,
 * and the long tail of a skewed mix (thousands of distinct URLs, each asked now and then) is not
 * rebuilt every second. A cursor that expires is honoured up to the answer's age longer. ttlMs 0: off.
 * Bounded by count (of URLs) and by bytes (bench:soak): a count cap alone let large pages hold
 * hundreds of MB.
 */
export const responseCache = (
  clock: Clock,
  ttlMs: number,
  options: { maxEntries?: number; maxBytes?: number; revalidation?: Revalidation } = {},
): ResponseCache => {
  // By URL, then compared field by field: a key joined from the URL and the variant was a string
  // to build and hash on every request (bench:traffic), and the URL alone is one the request has.
  const entries = new BoundedMap<string, Entry[]>(
    options.maxEntries ?? 10_000,
    options.maxBytes ?? 16 * 1_048_576,
  );
  const { revalidation } = options;
  const find = (request: FastifyRequest): Entry | undefined => {
    const kept = entries.get(request.url);
    if (!kept) return undefined;
    const pageCap = authOf(request).plan.max_page_size;
    const { protocol, host } = request;
    return kept.find(
      (entry) => entry.pageCap === pageCap && entry.host === host && entry.protocol === protocol,
    );
  };
  const keep = (request: FastifyRequest, entry: Entry) => {
    const others = (entries.get(request.url) ?? []).filter((kept) => !sameVariant(kept, entry));
    const kept = [...others.slice(1 - VARIANTS_PER_URL), entry];
    // Each body object is kept beside its JSON: about twice the JSON's bytes.
    entries.set(
      request.url,
      kept,
      kept.reduce((bytes, { json }) => bytes + json.length * 2, 0),
    );
  };
  const isFresh = (entry: Entry, now: number, version: VersionState | null) =>
    entry.until > now || (entry.version !== null && entry.version === version?.value && entry.expires > now);

  const answer = async <Body>(request: FastifyRequest, reply: Reply, build: () => Promise<Body>) => {
    if (ttlMs <= 0) return build();
    const now = clock.now();
    const version = revalidation ? await revalidation.version.current() : null;
    let entry = find(request);
    if (!entry || !isFresh(entry, now, version)) {
      const body = await build();
      const settled =
        version !== null && revalidation !== undefined && now >= version.since + revalidation.settleMs;
      entry = {
        ...variantOf(request),
        body,
        json: JSON.stringify(body),
        until: now + ttlMs,
        version: settled ? version.value : null,
        expires: now + (revalidation?.maxAgeMs ?? ttlMs),
      };
      keep(request, entry);
    }
    // Fastify would serialize the body again: hand it the kept serialization instead.
    const { json } = entry;
    reply.type(JSON_TYPE);
    reply.serializer(() => json);
    return entry.body as Body;
  };

  const early = (request: FastifyRequest): string | null | Promise<string | null> => {
    if (ttlMs <= 0 || entries.size === 0) return null;
    const entry = find(request);
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

  return Object.assign(answer, { early });
};
