import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type CursorBinding,
  type CursorPayload,
  type CursorPosition,
  checkCursorPayload,
  cursorPayload,
  invalidCursor,
} from "@gmi/rules/pagination/cursor";

export type { CursorBinding, CursorPosition } from "@gmi/rules/pagination/cursor";
export { CURSOR_MAX_AGE_MS } from "@gmi/rules/pagination/cursor";

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("base64url");

/**
 * Opaque, signed keyset cursor: base64url(JSON payload) "." base64url(HMAC-SHA256). The signature
 * covers the endpoint and its scope parameters, so a cursor replayed on another endpoint, sort or
 * console filter is refused instead of serving a wrong page. The payload and its checks are the
 * shared rules' (the mocks use them unsigned).
 */
export const encodeCursor = (
  secret: string,
  binding: CursorBinding,
  position: CursorPosition,
  now: number,
) => {
  const body = Buffer.from(JSON.stringify(cursorPayload(binding, position, now))).toString("base64url");
  return `${body}.${sign(secret, body)}`;
};

/** Throws 422 validation_failed naming `cursor` for a forged, corrupted, foreign or stale cursor. */
export const decodeCursor = (
  secret: string,
  binding: CursorBinding,
  token: string,
  now: number,
  maxAgeMs?: number,
): CursorPosition => {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined)
    throw invalidCursor("is not a cursor issued by this service");
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw invalidCursor("is not a cursor issued by this service");
  }
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CursorPayload;
  } catch {
    throw invalidCursor("is corrupted");
  }
  return checkCursorPayload(payload, binding, now, maxAgeMs);
};
