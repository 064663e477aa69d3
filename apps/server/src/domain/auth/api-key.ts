import { hash, randomBytes } from "node:crypto";

/**
 * Key format: `gmi_live_` + 32 random bytes in base64url (43 characters, 256 bits). The prefix
 * makes a leaked key recognisable (secret scanners, logs); the entropy makes the unsalted SHA-256
 * we store safe to look up by equality.
 */
export const KEY_PREFIX = "gmi_live_";
const KEY_PATTERN = /^gmi_live_[A-Za-z0-9_-]{43}$/;

export type NewApiKey = { key: string; hash: string; lastFour: string };

export const generateApiKey = (): NewApiKey => {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, hash: hashApiKey(key), lastFour: key.slice(-4) };
};

/** The one-shot hash: a third of createHash().update().digest()'s cost, on every request. */
export const hashApiKey = (key: string): string => hash("sha256", key, "hex");

/** Well formed keys only reach the database; anything else is a 401 without a query. */
export const isWellFormedKey = (key: string): boolean => KEY_PATTERN.test(key);

/** The token of an `Authorization: Bearer <token>` header, or null. */
export const bearerToken = (header: string | undefined): string | null => {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
};

/** What an Authorization header presents: no bearer token, a token that is no key, or a key (its hash). */
export type PresentedKey = { readonly hash: string } | "no token" | "malformed";

export const presentedKey = (header: string | undefined): PresentedKey => {
  const token = bearerToken(header);
  if (!token) return "no token";
  if (!isWellFormedKey(token)) return "malformed";
  return { hash: hashApiKey(token) };
};
