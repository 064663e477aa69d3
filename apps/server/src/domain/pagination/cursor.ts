import { createHmac, timingSafeEqual } from "node:crypto";
import { validationFailed } from "../../errors.js";

/** A keyset position: the sort-key values of the last row served, ending with its id. */
export type CursorPosition = Array<string | number | null>;

/** What a cursor is valid for: the endpoint and the parameters that choose the row set. */
export type CursorBinding = { route: string; scope: Record<string, string | number | null | undefined> };

const VERSION = 1;
/** A cursor older than this is refused: a walk that old is better restarted than resumed. */
export const CURSOR_MAX_AGE_MS = 24 * 60 * 60 * 1000;

type Payload = { v: number; r: string; s: string; p: CursorPosition; t: number };

const canonicalScope = (scope: CursorBinding["scope"]) =>
  JSON.stringify(
    Object.keys(scope)
      .sort()
      .map((k) => [k, scope[k] ?? null]),
  );

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("base64url");

/**
 * Opaque, signed keyset cursor: base64url(JSON payload) "." base64url(HMAC-SHA256). The signature
 * covers the endpoint and its scope parameters, so a cursor replayed on another endpoint, sort or
 * console filter is refused instead of serving a wrong page.
 */
export const encodeCursor = (
  secret: string,
  binding: CursorBinding,
  position: CursorPosition,
  now: number,
) => {
  const payload: Payload = {
    v: VERSION,
    r: binding.route,
    s: canonicalScope(binding.scope),
    p: position,
    t: Math.floor(now / 1000),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${sign(secret, body)}`;
};

const invalid = (message: string) => validationFailed("query", "cursor", message);

/** Throws 422 validation_failed naming `cursor` for a forged, corrupted, foreign or stale cursor. */
export const decodeCursor = (
  secret: string,
  binding: CursorBinding,
  token: string,
  now: number,
  maxAgeMs = CURSOR_MAX_AGE_MS,
): CursorPosition => {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) throw invalid("is not a cursor issued by this service");
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw invalid("is not a cursor issued by this service");
  }
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
  } catch {
    throw invalid("is corrupted");
  }
  if (payload.v !== VERSION || !Array.isArray(payload.p))
    throw invalid("is from an older version of the service");
  if (payload.r !== binding.route || payload.s !== canonicalScope(binding.scope)) {
    throw invalid("belongs to another endpoint or other filters; restart from the first page");
  }
  if (now - payload.t * 1000 > maxAgeMs) throw invalid("has expired; restart from the first page");
  return payload.p;
};
