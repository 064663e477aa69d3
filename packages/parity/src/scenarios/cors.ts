import type { Req, Scenario } from "../scenario.js";

const ORIGIN = "https://app.example.test";

const preflight = (path: string, method: string, headers = "authorization, content-type"): Req => ({
  method: "OPTIONS",
  path,
  key: null,
  headers: {
    origin: ORIGIN,
    "access-control-request-method": method,
    "access-control-request-headers": headers,
  },
});

/** CORS as a browser meets it: preflights (no key, free), and the headers a page may read afterwards. */
export const corsScenarios = (): Scenario[] => [
  {
    name: "CORS preflight of a GET list and of a batch POST",
    steps: [
      { kind: "send", request: preflight("/api/v1/intelligence", "GET") },
      {
        kind: "send",
        request: preflight(
          "/api/v1/intelligence/batch",
          "POST",
          "authorization, content-type, idempotency-key",
        ),
      },
      { kind: "send", request: preflight("/api/v1/games/game/101", "GET", "authorization") },
      { kind: "send", request: { path: "/api/v1/me" } },
    ],
  },
  {
    name: "CORS headers on answers to a page of another origin",
    steps: [
      { kind: "send", request: { path: "/api/v1/games/titles", headers: { origin: ORIGIN } } },
      { kind: "send", request: { path: "/api/v1/games/titles", key: null, headers: { origin: ORIGIN } } },
      {
        kind: "send",
        request: {
          method: "POST",
          path: "/api/v1/intelligence/batch",
          body: { requests: [{ game_id: 101 }] },
          headers: { origin: ORIGIN, "idempotency-key": "cors-1" },
        },
      },
      {
        kind: "send",
        request: {
          method: "POST",
          path: "/api/v1/intelligence/batch",
          body: { requests: [{ game_id: 101 }] },
          headers: { origin: ORIGIN, "idempotency-key": "cors-1" },
        },
      },
    ],
  },
];
