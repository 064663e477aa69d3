import { type ContractRoute, type ErrorCode, errorCodesOf, listRoutes, PLANS, SCOPES } from "@gmi/contract";
import { IDS } from "../fixture.js";
import type { Req, Scenario } from "../scenario.js";

/** Path parameters that exist in the fixture. */
const PATH_VALUES: Record<string, string> = {
  id: String(IDS.game),
  game_id: String(IDS.game),
  console_id: String(IDS.consoleA),
  slug: "chrono-trigger",
  title: "Chrono%20Trigger",
};

const pathOf = (route: ContractRoute, values: Record<string, string> = {}) =>
  route.path.replace(/:([a-z_]+)/g, (_, name: string) => values[name] ?? PATH_VALUES[name] ?? "1");

/** A request `route` accepts from a key with its scope (a batch of one found and one unknown game). */
export const validRequest = (route: ContractRoute, extra: Partial<Req> = {}): Req => {
  const base: Req = { method: route.method as "GET" | "POST", path: pathOf(route) };
  if (route.method === "POST") base.body = { requests: [{ id: IDS.game }, { id: IDS.missing }] };
  return { ...base, ...extra };
};

const queryNames = (route: ContractRoute): string[] => {
  const shape = (route.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape) return Object.keys(shape);
  // A refined schema (history): its object inside.
  const inner = (route.query as { _def?: { schema?: { shape?: Record<string, unknown> } } } | undefined)?._def
    ?.schema?.shape;
  return inner ? Object.keys(inner) : [];
};

/**
 * Every route of the contract × every status it can give (`errorCodesOf`, the contract's own list),
 * so a route added to the contract is covered the day it is added. The 5xx codes need a fault on
 * the server and are covered by hand (faults.ts) where the server can be made to give them.
 */
export const routeScenarios = (): Scenario[] => {
  const out: Scenario[] = [];
  for (const { name, route } of listRoutes()) {
    const codes = new Set<ErrorCode>(errorCodesOf(route));
    const valid = validRequest(route);
    const add = (suffix: string, scenario: Omit<Scenario, "name">) =>
      out.push({ name: `${name} ${suffix}`, ...scenario });

    add("200", { steps: [{ kind: "send", request: valid }] });
    add("200 free plan", { keys: { main: { plan: "free" } }, steps: [{ kind: "send", request: valid }] });
    add("200 enterprise plan", {
      keys: { main: { plan: "enterprise" } },
      steps: [{ kind: "send", request: valid }],
    });

    add("401 without a key", { steps: [{ kind: "send", request: { ...valid, key: null } }] });
    add("401 malformed key", {
      steps: [
        { kind: "send", request: { ...valid, key: { header: "Bearer nope" } } },
        { kind: "send", request: { ...valid, key: { header: "Basic abc" } } },
      ],
    });
    add("401 unknown key", {
      steps: [{ kind: "send", request: { ...valid, key: { header: `Bearer gmi_live_${"A".repeat(43)}` } } }],
    });
    add("401 revoked key", {
      keys: { main: { state: "revoked" } },
      steps: [{ kind: "send", request: valid }],
    });
    add("401 expired key", {
      keys: { main: { state: "expired" } },
      steps: [{ kind: "send", request: valid }],
    });

    const scope = route.metadata.scope;
    if (scope !== null) {
      add(`403 without ${scope}`, {
        keys: { main: { scopes: SCOPES.filter((s) => s !== scope) } },
        steps: [{ kind: "send", request: valid }],
      });
    }
    add("403 organization suspended", {
      keys: { main: { state: "suspended-organization" } },
      steps: [{ kind: "send", request: valid }],
    });
    add("403 API client suspended", {
      keys: { main: { state: "suspended-client" } },
      steps: [{ kind: "send", request: valid }],
    });

    if (codes.has("not_found")) {
      const param = route.path.includes(":game_id") ? "game_id" : "id";
      add("404 unknown id", {
        steps: [
          { kind: "send", request: { ...valid, path: pathOf(route, { [param]: String(IDS.missing) }) } },
        ],
      });
      add("404 disabled game", {
        steps: [
          { kind: "send", request: { ...valid, path: pathOf(route, { [param]: String(IDS.disabled) }) } },
        ],
      });
    }

    if (codes.has("validation_failed")) {
      const steps: Scenario["steps"] = [{ kind: "send", request: { ...valid, query: { bogus: "1" } } }];
      const names = queryNames(route);
      if (names.includes("period"))
        steps.push({ kind: "send", request: { ...valid, query: { period: "week" } } });
      if (names.includes("date")) {
        steps.push({ kind: "send", request: { ...valid, query: { date: "2026-02-30" } } });
      }
      if (names.includes("limit")) {
        steps.push({ kind: "send", request: { ...valid, query: { limit: "0" } } });
        steps.push({ kind: "send", request: { ...valid, query: { limit: "abc" } } });
      }
      if (names.includes("sort"))
        steps.push({ kind: "send", request: { ...valid, query: { sort: "price" } } });
      if (
        route.path.includes(":id") ||
        route.path.includes(":game_id") ||
        route.path.includes(":console_id")
      ) {
        const param = route.path.includes(":game_id")
          ? "game_id"
          : route.path.includes(":console_id")
            ? "console_id"
            : "id";
        steps.push({ kind: "send", request: { ...valid, path: pathOf(route, { [param]: "abc" }) } });
        steps.push({ kind: "send", request: { ...valid, path: pathOf(route, { [param]: "0" }) } });
      }
      add("422 invalid input", { steps });
      if (names.includes("date")) {
        add("422 date without data", {
          steps: [{ kind: "send", request: { ...valid, query: { date: "2026-10-01" } } }],
        });
        add("200 an earlier computed date", {
          steps: [{ kind: "send", request: { ...valid, query: { date: "2026-11-19" } } }],
        });
      }
    }

    if (codes.has("quota_exceeded")) {
      const quota = PLANS.free.monthly_quota;
      add("402 quota used up (Free)", {
        keys: { main: { plan: "free", monthUsed: quota - 1 } },
        steps: [
          {
            kind: "send",
            request: route.method === "POST" ? { ...valid, body: { requests: [{ id: IDS.game }] } } : valid,
          },
          { kind: "send", request: valid },
          { kind: "send", request: valid },
        ],
      });
    }
    if (codes.has("rate_limit_exceeded")) {
      const single = route.method === "POST" ? { ...valid, body: { requests: [{ id: IDS.game }] } } : valid;
      add("429 minute window (Free)", {
        keys: { main: { plan: "free" } },
        steps: [{ kind: "repeat", request: single, times: PLANS.free.rate_limit_per_minute + 2 }],
      });
    }
  }
  return out;
};
