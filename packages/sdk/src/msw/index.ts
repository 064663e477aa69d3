import {
  type ContractRoute,
  IdempotencyKeySchema,
  listRoutes,
  PLANS,
  type PlanSlug,
  SCOPES,
  type Scope,
} from "@gmi/contract";
import type { MockWorld } from "@gmi/rules/world/types";
import { delay, HttpResponse, http, type RequestHandler } from "msw";
import type { RouteName } from "../types.js";
import { type FixtureOptions, type Fixtures, fixturesOf, generateWorld } from "./fixtures.js";
import { errorReply, issuesOf, type Reply, type World } from "./reply.js";
import { resolvers } from "./resolvers.js";
import { type Scenarios, scenarios } from "./scenarios.js";
import { MockState } from "./state.js";

export type { MockCatalog, MockPriceObservation, MockSnapshot, MockWorld } from "@gmi/rules/world/types";
export type { FixtureOptions, Fixtures } from "./fixtures.js";
export { generateWorld } from "./fixtures.js";
export type { Scenarios } from "./scenarios.js";
export type { Fault, RecordedRequest } from "./state.js";
export { MockState } from "./state.js";

export interface GmiMockOptions extends FixtureOptions {
  /** Origin the handlers answer on (default `https://api.gmi.test`). */
  baseUrl?: string | undefined;
  /** When set, only this key is accepted; otherwise any bearer token is. */
  apiKey?: string | undefined;
  /** The key's plan (default `pro`): page cap, batch size, rate-limit headers. */
  plan?: PlanSlug | undefined;
  /** The key's scopes (default: all). */
  scopes?: Scope[] | undefined;
  /** The generated world's latest date (default `2026-11-20`); ignored with `world`. */
  latestDate?: string | undefined;
  /**
   * What the mocks serve: a world exported from a real database (`gmi export-mock-world`), built
   * from events (`worldFromEvents`) or written by hand. Default: a generated world (`generateWorld`).
   */
  world?: MockWorld | undefined;
}

export interface GmiMocks {
  /** One msw handler per route of the contract, plus the CORS preflight. */
  handlers: RequestHandler[];
  /** Make the next requests face a 429, a 402, a 409, a 5xx burst, an expired key, a scope error... */
  scenarios: Scenarios;
  /** What the mock saw (`state.requests`) and what it holds (plan, idempotency records). */
  state: MockState;
  /** The world's latest 7d rows, all consoles: what a test most often compares with. */
  fixtures: Fixtures;
  /** The world the handlers serve. */
  world: MockWorld;
  baseUrl: string;
  /** Back to the defaults: no scenario, no recorded requests, no idempotency records. */
  reset(): void;
}

/**
 * Browsers (and happy-dom/jsdom) preflight cross-origin calls that carry `Authorization`, and only
 * let scripts read response headers the server exposes: without these the SDK could not see
 * `X-Request-Id` or the rate-limit state in a browser.
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, idempotency-replayed",
};
const PREFLIGHT = {
  ...CORS,
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, idempotency-key",
  "access-control-max-age": "600",
};

interface Parser {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: Array<{ path: Array<string | number>; message: string }> } };
}

/** Auth, account state, injected faults and input validation, in the order the server applies them. */
const gate = (
  name: RouteName,
  route: ContractRoute,
  request: Request,
  options: GmiMockOptions,
  state: MockState,
  requestId: string,
): Reply | undefined => {
  const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token || (options.apiKey !== undefined && token !== options.apiKey) || state.expiredKey) {
    return errorReply("unauthorized", "Missing, invalid, revoked or expired API key");
  }
  if (state.inactive) {
    return errorReply("account_inactive", "The organization is not active", {
      subject: "organization",
      status: "suspended",
    });
  }
  const scope = route.metadata.scope;
  if (scope && !state.scopes.has(scope)) {
    return errorReply("insufficient_scope", `This key lacks the ${scope} scope`, { required_scope: scope });
  }
  if (state.quotaResetsIn !== null) {
    const plan = PLANS[state.plan];
    return errorReply(
      "quota_exceeded",
      "The monthly quota is used up",
      { quota: plan.monthly_quota ?? 0, used: state.monthUsed, resets_in: state.quotaResetsIn },
      { "retry-after": String(state.quotaResetsIn) },
    );
  }
  const fault = state.takeFault(name, request.method, "error");
  if (fault?.code && fault.status) {
    const details: Record<string, Record<string, unknown> | undefined> = {
      rate_limit_exceeded: fault.details,
      idempotency_conflict: {
        idempotency_key: request.headers.get("idempotency-key") ?? "",
        retry_after: fault.retryAfter ?? 1,
      },
      server_error: { request_id: requestId },
    };
    const headers = fault.retryAfter === undefined ? undefined : { "retry-after": String(fault.retryAfter) };
    const reply = errorReply(fault.code, `Injected ${fault.code}`, details[fault.code], headers);
    return { ...reply, status: fault.status };
  }
  return undefined;
};

export const createGmiMocks = (options: GmiMockOptions = {}): GmiMocks => {
  const baseUrl = (options.baseUrl ?? "https://api.gmi.test").replace(/\/+$/, "");
  const state = new MockState({ plan: options.plan ?? "pro", scopes: options.scopes ?? [...SCOPES] });
  const served =
    options.world ?? generateWorld({ ...options, latestDate: options.latestDate ?? "2026-11-20" });
  const world: World = { state, world: served };
  let fixtures: Fixtures | undefined;

  const respond = async (name: RouteName, route: ContractRoute, request: Request, params: object) => {
    const requestId = crypto.randomUUID();
    const url = new URL(request.url);
    const idempotencyKey = request.headers.get("idempotency-key");
    let body: unknown;
    let badJson = false;
    if (route.method === "POST") {
      const text = await request.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        badJson = true;
      }
    }
    state.requests.push({ route: name, method: request.method, url: request.url, idempotencyKey, body });
    if (state.takeFault(name, request.method, "network")) return HttpResponse.error();
    const slow = state.takeFault(name, request.method, "delay");
    if (slow) await delay(slow.delayMs ?? 0);

    const reply = ((): Reply => {
      const refused = gate(name, route, request, options, state, requestId);
      if (refused) return refused;
      const typed = route as unknown as { pathParams?: Parser; query?: Parser };
      const path = typed.pathParams
        ? typed.pathParams.safeParse(params)
        : { success: true as const, data: {} };
      if (!path.success)
        return errorReply("validation_failed", "Invalid path", issuesOf("path", path.error.issues));
      const query = typed.query
        ? typed.query.safeParse(Object.fromEntries(url.searchParams))
        : { success: true as const, data: {} };
      if (!query.success) {
        return errorReply("validation_failed", "Invalid query", issuesOf("query", query.error.issues));
      }
      if (idempotencyKey !== null && !IdempotencyKeySchema.safeParse(idempotencyKey).success) {
        return errorReply("validation_failed", "Invalid Idempotency-Key", {
          issues: [
            { location: "header", field: "idempotency-key", message: "must be 1-255 printable characters" },
          ],
        });
      }
      if (badJson) {
        return errorReply("validation_failed", "The body is not JSON", {
          issues: [{ location: "body", field: "", message: "is not JSON" }],
        });
      }
      const input = { route: name, query: query.data, path: path.data, body, url, idempotencyKey, requestId };
      return resolvers[name](input, world);
    })();

    const headers = {
      ...CORS,
      "x-request-id": requestId,
      ...state.meter(reply.units ?? 1, PLANS[state.plan].rate_limit_per_minute),
      ...reply.headers,
    };
    return HttpResponse.json(reply.body as Record<string, unknown>, { status: reply.status, headers });
  };

  const handlers: RequestHandler[] = listRoutes().map(({ name, route }) => {
    const method = route.method === "POST" ? http.post : http.get;
    return method(`${baseUrl}${route.path}`, ({ request, params }) =>
      respond(name as RouteName, route, request, params),
    );
  });
  handlers.push(
    http.options(`${baseUrl}/api/v1/*`, () => new HttpResponse(null, { status: 204, headers: PREFLIGHT })),
  );

  return {
    handlers,
    scenarios: scenarios(state),
    state,
    get fixtures() {
      fixtures ??= fixturesOf(served);
      return fixtures;
    },
    world: served,
    baseUrl,
    reset: () => state.reset(),
  };
};

/**
 * One call: builds the mocks and hands them to msw's own setup function (`setupServer` from
 * `msw/node` in tests, `setupWorker` from `msw/browser` in a dev build), so this module never picks
 * a runtime for you.
 *
 * ```ts
 * const gmi = installGmiMocks(setupServer, { baseUrl: "https://api.test" });
 * beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" })); // msw 2: onUnhandledRequest
 * afterEach(() => gmi.reset());
 * afterAll(() => gmi.server.close());
 * ```
 */
export const installGmiMocks = <Server extends { resetHandlers(...handlers: never[]): void }>(
  setup: (...handlers: RequestHandler[]) => Server,
  options: GmiMockOptions = {},
): GmiMocks & { server: Server } => {
  const mocks = createGmiMocks(options);
  const server = setup(...mocks.handlers);
  return {
    ...mocks,
    server,
    reset() {
      mocks.reset();
      server.resetHandlers();
    },
  };
};
