import { IDS } from "../fixture.js";
import type { Req, Scenario, Step } from "../scenario.js";

/** The paginated lists, each with a request that has several pages at `limit=10`. */
const LISTS: Array<{ name: string; request: Req }> = [
  { name: "intelligence", request: { path: "/api/v1/intelligence" } },
  { name: "intelligence sort=demand", request: { path: "/api/v1/intelligence", query: { sort: "demand" } } },
  { name: "intelligence sort=value", request: { path: "/api/v1/intelligence", query: { sort: "value" } } },
  {
    name: "intelligence console_id=2 period=30d",
    request: { path: "/api/v1/intelligence", query: { console_id: String(IDS.consoleB), period: "30d" } },
  },
  { name: "intelligence period=day", request: { path: "/api/v1/intelligence", query: { period: "day" } } },
  { name: "searches", request: { path: "/api/v1/demand-intent/searches" } },
  {
    name: "searches sort=momentum",
    request: { path: "/api/v1/demand-intent/searches", query: { sort: "momentum" } },
  },
  {
    name: "searches sort=unmet",
    request: { path: "/api/v1/demand-intent/searches", query: { sort: "unmet" } },
  },
  {
    name: "searches console_id=1 period=30d",
    request: { path: "/api/v1/demand-intent/searches", query: { console_id: "1", period: "30d" } },
  },
  { name: "trending", request: { path: "/api/v1/demand-intent/searches/trending" } },
  { name: "unmet", request: { path: "/api/v1/demand-intent/searches/unmet", query: { period: "30d" } } },
  { name: "titles", request: { path: "/api/v1/games/titles" } },
  { name: "slugs", request: { path: "/api/v1/games/slugs" } },
  { name: "console 1", request: { path: `/api/v1/games/console/${IDS.consoleA}` } },
  { name: "consoles", request: { path: "/api/v1/consoles" } },
];

const withQuery = (request: Req, query: Record<string, string>): Req => ({
  ...request,
  query: { ...request.query, ...query },
});

/** Page and cursor walks to the end of every list, the plans' page caps, and the edges of paging. */
export const listScenarios = (): Scenario[] => {
  const out: Scenario[] = [];
  for (const { name, request } of LISTS) {
    out.push({
      name: `walk ${name}: pages of 10 by links.next`,
      steps: [{ kind: "walk", request: withQuery(request, { limit: "10" }), follow: "links.next" }],
    });
    out.push({
      name: `walk ${name}: cursor pages of 10`,
      steps: [
        { kind: "walk", request: withQuery(request, { limit: "10", paginate: "cursor" }), follow: "cursor" },
      ],
    });
  }
  for (const plan of ["free", "starter", "pro", "enterprise"] as const) {
    out.push({
      name: `page cap ${plan}: titles limit=1000 walked`,
      keys: { main: { plan } },
      steps: [
        {
          kind: "walk",
          request: { path: "/api/v1/games/titles", query: { limit: "1000" } },
          follow: "links.next",
        },
      ],
    });
    out.push({
      name: `page cap ${plan}: intelligence limit=60, cursor`,
      keys: { main: { plan } },
      steps: [
        {
          kind: "walk",
          request: { path: "/api/v1/intelligence", query: { limit: "60", paginate: "cursor" } },
          follow: "cursor",
        },
      ],
    });
  }
  out.push({
    name: "paging edges: page past the end, page 0, a cursor of another list, a cursor of another scope",
    steps: [
      { kind: "send", request: { path: "/api/v1/games/titles", query: { page: "99" } } },
      { kind: "send", request: { path: "/api/v1/games/titles", query: { page: "0" } } },
      { kind: "send", request: { path: "/api/v1/games/titles", query: { cursor: "not-a-cursor" } } },
      {
        kind: "send",
        label: "titles cursor",
        request: { path: "/api/v1/games/titles", query: { limit: "5", paginate: "cursor" } },
      },
      {
        kind: "send",
        request: { path: "/api/v1/games/slugs", query: { limit: "5" } },
        cursorFrom: "titles cursor",
      },
      {
        kind: "send",
        label: "searches cursor",
        request: { path: "/api/v1/demand-intent/searches", query: { limit: "5", paginate: "cursor" } },
      },
      {
        kind: "send",
        request: { path: "/api/v1/demand-intent/searches", query: { limit: "5", sort: "unmet" } },
        cursorFrom: "searches cursor",
      },
      {
        kind: "send",
        request: { path: "/api/v1/demand-intent/searches", query: { limit: "5", period: "30d" } },
        cursorFrom: "searches cursor",
      },
      {
        kind: "send",
        request: { path: "/api/v1/games/titles", query: { paginate: "cursor", page: "2" } },
      },
    ],
  });
  out.push({
    name: "consoles: an empty console, an unknown console",
    steps: [
      { kind: "send", request: { path: `/api/v1/games/console/${IDS.emptyConsole}` } },
      {
        kind: "send",
        request: { path: `/api/v1/games/console/${IDS.missingConsole}`, query: { limit: "5" } },
      },
      {
        kind: "send",
        request: { path: `/api/v1/games/console/${IDS.consoleB}`, query: { page: "2", limit: "7" } },
      },
    ],
  });
  out.push({
    name: "lookups: slug on two consoles, title in another case, no match, unpriced and quiet games",
    steps: [
      { kind: "send", request: { path: "/api/v1/games/slug/chrono-trigger" } },
      { kind: "send", request: { path: "/api/v1/games/title/CHRONO%20TRIGGER" } },
      { kind: "send", request: { path: "/api/v1/games/slug/no-such-game" } },
      { kind: "send", request: { path: "/api/v1/games/title/Hidden%20Gem" } },
      { kind: "send", request: { path: `/api/v1/games/game/${IDS.unpriced}` } },
      { kind: "send", request: { path: `/api/v1/intelligence/${IDS.unpriced}` } },
      { kind: "send", request: { path: `/api/v1/intelligence/${IDS.quiet}` } },
      { kind: "send", request: { path: `/api/v1/intelligence/${IDS.quiet}/conditions` } },
      { kind: "send", request: { path: `/api/v1/demand-intent/games/${IDS.quiet}/conditions` } },
      { kind: "send", request: { path: `/api/v1/intelligence/${IDS.twin}`, query: { period: "30d" } } },
    ],
  });
  out.push({
    name: "collections by period and date",
    steps: ["day", "7d", "30d"].flatMap((period): Step[] => [
      {
        kind: "send" as const,
        request: { path: "/api/v1/demand-intent/searches/conditions", query: { period } },
      },
      {
        kind: "send" as const,
        request: {
          path: `/api/v1/demand-intent/games/${IDS.game}/conditions`,
          query: { period, date: "2026-11-18" },
        },
      },
      {
        kind: "send" as const,
        request: { path: `/api/v1/intelligence/${IDS.game}/conditions`, query: { period } },
      },
    ]),
  });
  out.push({
    name: "paths and methods the contract does not have",
    steps: [
      { kind: "send", request: { path: "/api/v1/nope" } },
      { kind: "send", request: { method: "DELETE", path: "/api/v1/intelligence" } },
      { kind: "send", request: { method: "POST", path: "/api/v1/intelligence", body: { requests: [] } } },
    ],
  });
  return out;
};
