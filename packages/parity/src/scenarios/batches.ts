import { PLANS } from "@gmi/contract";
import { IDS } from "../fixture.js";
import type { Req, Scenario } from "../scenario.js";

const ROUTES = [
  { name: "intelligence batch", path: "/api/v1/intelligence/batch", idKey: "game_id" },
  { name: "signals batch", path: "/api/v1/signals/batch", idKey: "id" },
] as const;

const ids = (count: number, from = 200) => Array.from({ length: count }, (_, i) => from + i);

/** Batches: 200, 207, per-item 422, the cap, the `id` alias, unknown and disabled games, bodies refused whole. */
export const batchScenarios = (): Scenario[] => {
  const out: Scenario[] = [];
  for (const { name, path, idKey } of ROUTES) {
    const post = (requests: unknown, extra: Partial<Req> = {}): Req => ({
      method: "POST",
      path,
      body: { requests },
      ...extra,
    });
    const el = (id: unknown) => ({ [idKey]: id });
    out.push({
      name: `${name}: 200, every element found`,
      steps: [{ kind: "send", request: post([el(IDS.game), el(103), el(IDS.unpriced), el(IDS.quiet)]) }],
    });
    out.push({
      name: `${name}: unknown and disabled games are found: false`,
      steps: [
        { kind: "send", request: post([el(IDS.missing), el(IDS.disabled), el(IDS.game), el(IDS.game)]) },
      ],
    });
    out.push({
      name: `${name}: 207 with per-item 422s`,
      steps: [
        {
          kind: "send",
          request: post([el(IDS.game), el("abc"), {}, el(0), el(1.5), "x", null, { other: 1 }]),
        },
        { kind: "send", request: post([el(-1)]) },
      ],
    });
    out.push({
      name: `${name}: the id alias, and both keys at once`,
      steps: [
        { kind: "send", request: post([{ id: IDS.game }, { id: 103 }]) },
        { kind: "send", request: post([{ id: IDS.game, game_id: 103 }]) },
      ],
    });
    out.push({
      name: `${name}: period and date apply to the whole batch`,
      steps: [
        {
          kind: "send",
          request: post([el(IDS.game), el(102)], { query: { period: "30d", date: "2026-11-19" } }),
        },
        { kind: "send", request: post([el(IDS.game)], { query: { period: "day" } }) },
        { kind: "send", request: post([el(IDS.game)], { query: { date: "2026-10-01" } }) },
        { kind: "send", request: post([el(IDS.game)], { query: { period: "year" } }) },
      ],
    });
    for (const plan of ["free", "starter"] as const) {
      const max = PLANS[plan].max_batch_size;
      out.push({
        name: `${name}: ${plan} cap, ${max} accepted, ${max + 1} batch_too_large`,
        keys: { main: { plan } },
        steps: [
          { kind: "send", request: post(ids(max).map(el)) },
          { kind: "send", request: post(ids(max + 1).map(el)) },
        ],
      });
    }
    out.push({
      name: `${name}: bodies refused whole`,
      steps: [
        { kind: "send", request: post([]) },
        { kind: "send", request: { method: "POST", path, body: {} } },
        { kind: "send", request: { method: "POST", path, body: { requests: "all" } } },
        { kind: "send", request: { method: "POST", path, body: [1, 2] } },
        {
          kind: "send",
          request: { method: "POST", path, rawBody: "{", headers: { "content-type": "application/json" } },
        },
        {
          kind: "send",
          request: {
            method: "POST",
            path,
            rawBody: '{"requests":[]}',
            headers: { "content-type": "text/plain" },
          },
        },
        { kind: "send", request: { method: "POST", path } },
      ],
    });
    out.push({
      name: `${name}: a body over the size limit`,
      steps: [
        {
          kind: "send",
          request: {
            method: "POST",
            path,
            rawBody: JSON.stringify({ requests: [el(IDS.game)], pad: "x".repeat(1_100_000) }),
            headers: { "content-type": "application/json" },
          },
        },
      ],
    });
    out.push({
      name: `${name}: metered per element up to the minute window (Free)`,
      keys: { main: { plan: "free" } },
      steps: [
        { kind: "send", request: post(ids(10).map(el)) },
        { kind: "send", request: post(ids(10).map(el)) },
        { kind: "send", request: post(ids(9).map(el)) },
        { kind: "send", request: post(ids(2).map(el)) },
        { kind: "send", request: post([el(IDS.game)]) },
        { kind: "send", request: { path: "/api/v1/games/titles" } },
        { kind: "send", request: { path: "/api/v1/me" } },
      ],
    });
    out.push({
      name: `${name}: quota reached inside a batch (Free)`,
      keys: { main: { plan: "free", monthUsed: (PLANS.free.monthly_quota ?? 0) - 3 } },
      steps: [
        { kind: "send", request: post(ids(5).map(el)) },
        { kind: "send", request: post(ids(3).map(el)) },
        { kind: "send", request: post(ids(1).map(el)) },
        { kind: "send", request: { path: "/api/v1/me" } },
      ],
    });
  }
  return out;
};
