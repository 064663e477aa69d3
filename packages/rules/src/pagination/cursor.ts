import { validationFailed } from "../errors.js";

/** A keyset position: the sort-key values of the last row served, ending with its id. */
export type CursorPosition = Array<string | number | null>;

/** What a cursor is valid for: the endpoint and the parameters that choose the row set. */
export type CursorBinding = { route: string; scope: Record<string, string | number | null | undefined> };

export const CURSOR_VERSION = 1;
/** A cursor older than this is refused: a walk that old is better restarted than resumed. */
export const CURSOR_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What a cursor's body holds: version, route, scope, position, issue time (epoch seconds). */
export type CursorPayload = { v: number; r: string; s: string; p: CursorPosition; t: number };

/** The scope parameters in one canonical text, so the same filters always bind the same way. */
export const canonicalScope = (scope: CursorBinding["scope"]) =>
  JSON.stringify(
    Object.keys(scope)
      .sort()
      .map((k) => [k, scope[k] ?? null]),
  );

export const cursorPayload = (
  binding: CursorBinding,
  position: CursorPosition,
  now: number,
): CursorPayload => ({
  v: CURSOR_VERSION,
  r: binding.route,
  s: canonicalScope(binding.scope),
  p: position,
  t: Math.floor(now / 1000),
});

export const invalidCursor = (message: string) => validationFailed("query", "cursor", message);

/**
 * The checks every decoded cursor goes through, signed (the server's) or not (the mocks'): its
 * version, its route and scope, its age. Throws 422 validation_failed naming `cursor`.
 */
export const checkCursorPayload = (
  payload: CursorPayload,
  binding: CursorBinding,
  now: number,
  maxAgeMs = CURSOR_MAX_AGE_MS,
): CursorPosition => {
  if (payload.v !== CURSOR_VERSION || !Array.isArray(payload.p))
    throw invalidCursor("is from an older version of the service");
  if (payload.r !== binding.route || payload.s !== canonicalScope(binding.scope)) {
    throw invalidCursor("belongs to another endpoint or other filters; restart from the first page");
  }
  if (now - payload.t * 1000 > maxAgeMs) throw invalidCursor("has expired; restart from the first page");
  return payload.p;
};

const base64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64url = (text: string) =>
  new TextDecoder().decode(
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
  );

/** What encodes and decodes a list's cursors: the server signs them, the mocks do not. */
export type CursorCodec = {
  encode(binding: CursorBinding, position: CursorPosition, now: number): string;
  decode(binding: CursorBinding, token: string, now: number): CursorPosition;
};

/**
 * The server's cursor without its signature: `base64url(payload).mock`. For the mocks, which have
 * no secret to keep and run where synchronous HMAC is not at hand (browsers); the checks and their
 * 422s are the server's.
 */
export const unsignedCursors: CursorCodec = {
  encode: (binding, position, now) =>
    `${base64url(JSON.stringify(cursorPayload(binding, position, now)))}.mock`,
  decode: (binding, token, now) => {
    const [body, mark, extra] = token.split(".");
    if (!body || mark !== "mock" || extra !== undefined)
      throw invalidCursor("is not a cursor issued by this service");
    let payload: CursorPayload;
    try {
      payload = JSON.parse(fromBase64url(body)) as CursorPayload;
    } catch {
      throw invalidCursor("is corrupted");
    }
    return checkCursorPayload(payload, binding, now);
  },
};
