/**
 * The one list of what may differ between the real server and the mock, each by name and why, and
 * what is compared instead. Nothing else is skipped: every other field of every response is compared.
 */
export type Allowance = { field: string; why: string; instead: string };

export const ALLOWED: Allowance[] = [
  {
    field: "header X-Request-Id",
    why: "a fresh UUID per request on each side (spec: identifies the request in that server's logs)",
    instead: "present on both, and a UUID",
  },
  {
    field: "body error.details.request_id (500 server_error)",
    why: "the X-Request-Id of the answer, as above",
    instead: "a string on both",
  },
  {
    field: "cursor tokens: meta.pagination.next_cursor, and the cursor parameter of links.next",
    why: "opaque tokens (spec) the server signs with its CURSOR_SECRET, which a mock in a browser cannot hold",
    instead: "a token on both or null on both; each side's walk follows its own tokens to the end",
  },
  {
    field: "origin of links.next and links.prev",
    why: "each side answers on its own base URL (the server on 127.0.0.1:port, each mock on its own host)",
    instead: "path and query, parameter by parameter",
  },
];

/** Header names compared on every answer (spec, Limits rules 2-3; idempotency; media type). */
export const COMPARED_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "idempotency-replayed",
  "content-type",
] as const;

/** Compared on answers to a request that names an Origin (CORS), as comma lists in any order and case. */
export const CORS_HEADERS = [
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-expose-headers",
  "access-control-max-age",
] as const;
