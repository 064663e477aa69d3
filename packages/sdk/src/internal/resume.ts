import type { ListRouteName } from "./route-types.js";

/**
 * Where a walk stands: the cursor or page to fetch next, with its page size and, on an analytics
 * list, the snapshot date the walk reads (its first page's `meta.period_date`).
 */
export type Position =
  | { mode: "cursor"; cursor?: string | undefined; limit?: number | undefined; date?: string | undefined }
  | { mode: "page"; page: number; limit?: number | undefined; date?: string | undefined };

interface Token {
  v: 1;
  r: ListRouteName;
  m: "cursor" | "page";
  c?: string;
  p?: number;
  l?: number;
  d?: string;
}

const toBase64Url = (text: string) => {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromBase64Url = (text: string) => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};

/** An opaque, URL-safe string a backfill can store to restart a walk where it stopped. */
export const encodeResumeToken = (route: ListRouteName, position: Position): string => {
  const token: Token = { v: 1, r: route, m: position.mode };
  if (position.mode === "cursor" && position.cursor) token.c = position.cursor;
  if (position.mode === "page") token.p = position.page;
  if (position.limit !== undefined) token.l = position.limit;
  if (position.date !== undefined) token.d = position.date;
  return toBase64Url(JSON.stringify(token));
};

export const decodeResumeToken = (route: ListRouteName, text: string): Position => {
  let token: Token;
  try {
    token = JSON.parse(fromBase64Url(text)) as Token;
  } catch {
    throw new TypeError("Invalid resume token");
  }
  if (token?.v !== 1 || (token.m !== "cursor" && token.m !== "page"))
    throw new TypeError("Invalid resume token");
  if (token.r !== route) throw new TypeError(`This resume token belongs to ${token.r}, not ${route}`);
  return token.m === "cursor"
    ? { mode: "cursor", cursor: token.c, limit: token.l, date: token.d }
    : { mode: "page", page: token.p ?? 1, limit: token.l, date: token.d };
};
