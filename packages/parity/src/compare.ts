import { COMPARED_HEADERS, CORS_HEADERS } from "./allowed.js";
import type { Answer } from "./scenario.js";

/** One field that differs: where, and each side's value (`undefined` when absent). */
export type Difference = { field: string; server: unknown; mock: unknown };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_HEADERS = new Set<string>([
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-expose-headers",
]);

/** A header as compared: media types without spacing differences, lists as sorted lower-case sets. */
const headerValue = (name: string, value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  if (LIST_HEADERS.has(name)) {
    return value
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean)
      .sort()
      .join(", ");
  }
  if (name === "content-type") return value.toLowerCase().replace(/\s*;\s*/g, "; ");
  return value;
};

const parse = (text: string): { json: true; value: unknown } | { json: false } => {
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false };
  }
};

/** A link as compared: its path and its query parameters, without the origin (allowed.ts). */
const linkValue = (link: unknown): unknown => {
  if (typeof link !== "string") return link;
  try {
    const url = new URL(link);
    return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
  } catch {
    return link;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every leaf where two JSON values differ, by dotted path. */
const diffJson = (path: string, server: unknown, mock: unknown, out: Difference[]) => {
  // Allowed (allowed.ts): the request id inside a 500's details, and the origin of links.
  if (path === "error.details.request_id" && typeof server === "string" && typeof mock === "string") return;
  if (path === "links.next" || path === "links.prev") {
    server = linkValue(server);
    mock = linkValue(mock);
  }
  // Allowed: cursor values (opaque, signed by the server); their presence is compared.
  if (path === "meta.pagination.next_cursor" || /^links\.(next|prev)\.query\.cursor$/.test(path)) {
    server = typeof server === "string" ? "(a cursor)" : server;
    mock = typeof mock === "string" ? "(a cursor)" : mock;
  }
  if (Array.isArray(server) && Array.isArray(mock)) {
    if (server.length !== mock.length)
      out.push({ field: `${path}.length`, server: server.length, mock: mock.length });
    const shared = Math.min(server.length, mock.length);
    for (let i = 0; i < shared; i++) diffJson(`${path}[${i}]`, server[i], mock[i], out);
    return;
  }
  if (isObject(server) && isObject(mock)) {
    const keys = new Set([...Object.keys(server), ...Object.keys(mock)]);
    for (const key of [...keys].sort()) {
      diffJson(path ? `${path}.${key}` : key, server[key], mock[key], out);
    }
    return;
  }
  if (!Object.is(server, mock)) out.push({ field: path || "(body)", server, mock });
};

/**
 * The differences between the two answers to one request: status, the documented headers (the CORS
 * ones when the request named an Origin), X-Request-Id's presence and shape, and the body field by
 * field (JSON) or as text.
 */
export const compareAnswers = (server: Answer, mock: Answer, options: { cors: boolean }): Difference[] => {
  const out: Difference[] = [];
  if (server.status !== mock.status) out.push({ field: "status", server: server.status, mock: mock.status });
  const names = options.cors ? [...COMPARED_HEADERS, ...CORS_HEADERS] : COMPARED_HEADERS;
  for (const name of names) {
    const s = headerValue(name, server.headers[name]);
    const m = headerValue(name, mock.headers[name]);
    if (s !== m) out.push({ field: `header ${name}`, server: s, mock: m });
  }
  const idShape = (answer: Answer) => {
    const id = answer.headers["x-request-id"];
    return id === undefined ? "absent" : UUID.test(id) ? "a UUID" : `not a UUID: ${id}`;
  };
  if (idShape(server) !== idShape(mock)) {
    out.push({ field: "header x-request-id", server: idShape(server), mock: idShape(mock) });
  }
  const s = parse(server.body);
  const m = parse(mock.body);
  if (s.json && m.json) diffJson("", s.value, m.value, out);
  else if (server.body !== mock.body) {
    out.push({ field: "body (text)", server: server.body.slice(0, 200), mock: mock.body.slice(0, 200) });
  }
  return out;
};
