import { type ContractRoute, listRoutes, PLANS, type PlanSlug, SCOPES, type Scope } from "@gmi/contract";
import type { MockWorld } from "@gmi/rules/world/types";
import { delay, HttpResponse, http, type RequestHandler } from "msw";
import type { RouteName } from "../types.js";
import { type FixtureOptions, type Fixtures, fixturesOf, generateWorld } from "./fixtures.js";
import { errorReply, type Reply } from "./reply.js";
import type { World } from "./resolver.js";
import { resolvers } from "./resolvers.js";
import { admit } from "./respond.js";
import { type Scenarios, scenarios } from "./scenarios.js";
import { MockState } from "./state.js";

export type { MockCatalog, MockPriceObservation, MockSnapshot, MockWorld } from "@gmi/rules/world/types";
export type { FixtureOptions, Fixtures } from "./fixtures.js";
export { generateWorld } from "./fixtures.js";
export type { IdempotencyRecord, StoredAnswer } from "./idempotency.js";
export { type RateHeaders, RateMeter } from "./limits.js";
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
  /** The mock's clock, in epoch milliseconds (default `Date.now`): rate windows, quota month, expiry. */
  now?: (() => number) | undefined;
  /** Who the key belongs to, as `/me` names it. */
  account?: { organization?: { id: number; name: string }; keyName?: string } | undefined;
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
    "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotency-Replayed",
};
/** The server's preflight answer (plugins/cors.ts): no key needed, nothing charged. */
const PREFLIGHT = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers":
    "Authorization, Content-Type, Idempotency-Key, X-GMI-Client, X-GMI-Retry-Count",
  "access-control-max-age": "600",
};
const JSON_TYPE = "application/json; charset=utf-8";

/** The key and its account, worded as the server words them (domain/auth/authorize.ts). */
const authenticate = (request: Request, options: GmiMockOptions, state: MockState) => {
  const header = request.headers.get("authorization") ?? "";
  const token = /^Bearer (\S+)$/i.exec(header)?.[1];
  if (!token) return errorReply("unauthorized", "Send the API key as Authorization: Bearer <key>");
  if (options.apiKey !== undefined && token !== options.apiKey) {
    return errorReply("unauthorized", "The API key is not valid");
  }
  if (state.revokedKey) return errorReply("unauthorized", "The API key has been revoked");
  if (state.expiredKey) return errorReply("unauthorized", "The API key has expired");
  return null;
};

const authorize = (route: ContractRoute, state: MockState) => {
  if (state.inactive) {
    const subject = state.inactiveSubject;
    const who = subject === "organization" ? "organization" : "API client";
    return errorReply("account_inactive", `The ${who} is suspended`, { subject, status: "suspended" });
  }
  const scope = route.metadata.scope;
  if (scope && !state.scopes.has(scope)) {
    return errorReply("insufficient_scope", `This endpoint needs the scope ${scope}`, {
      required_scope: scope,
    });
  }
  return null;
};

/** The failures a test asked for (scenarios.ts), after the key and before the limits. */
const injected = (name: RouteName, request: Request, state: MockState, requestId: string): Reply | null => {
  if (state.quotaResetsIn !== null) {
    const plan = PLANS[state.plan];
    return errorReply(
      "quota_exceeded",
      `Monthly quota of ${plan.monthly_quota ?? 0} requests used up; it resets at the start of the next UTC month`,
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
  return null;
};

export const createGmiMocks = (options: GmiMockOptions = {}): GmiMocks => {
  const baseUrl = (options.baseUrl ?? "https://api.gmi.test").replace(/\/+$/, "");
  const state = new MockState(
    { plan: options.plan ?? "pro", scopes: options.scopes ?? [...SCOPES] },
    options.now ?? Date.now,
  );
  const served =
    options.world ?? generateWorld({ ...options, latestDate: options.latestDate ?? "2026-11-20" });
  const world: World = { state, world: served };
  let fixtures: Fixtures | undefined;

  const respond = async (name: RouteName, route: ContractRoute, request: Request, params: object) => {
    const requestId = crypto.randomUUID();
    const url = new URL(request.url);
    const idempotencyKey = request.headers.get("idempotency-key");
    const text = route.method === "POST" ? await request.text() : "";
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    state.requests.push({ route: name, method: request.method, url: request.url, idempotencyKey, body });
    if (state.takeFault(name, request.method, "network")) return HttpResponse.error();
    const slow = state.takeFault(name, request.method, "delay");
    if (slow) await delay(slow.delayMs ?? 0);

    const plan = PLANS[state.plan];
    // A 401 says nothing of a plan: no X-RateLimit-* (the server's answer).
    let answered: { reply: Reply; rate: Record<string, string> | null };
    const unknown = authenticate(request, options, state);
    const refused = unknown ? null : (authorize(route, state) ?? injected(name, request, state, requestId));
    if (unknown) answered = { reply: unknown, rate: null };
    else if (refused) answered = { reply: refused, rate: state.limits.peek(plan, state.now()) };
    else {
      answered = await admit(
        { name, route, request, params, url, requestId, text },
        state,
        (query, path, parsed) =>
          resolvers[name](
            { route: name, query, path, body: parsed, url, idempotencyKey: null, requestId },
            world,
          ),
      );
    }
    const { reply, rate } = answered;
    const headers: Record<string, string> = {
      ...(request.headers.get("origin") ? CORS : {}),
      "x-request-id": requestId,
      ...rate,
      "content-type": JSON_TYPE,
      ...reply.headers,
    };
    const payload = reply.raw ? (reply.body as string) : JSON.stringify(reply.body);
    return new HttpResponse(payload, { status: reply.status, headers });
  };

  const handlers: RequestHandler[] = listRoutes().map(({ name, route }) => {
    const method = route.method === "POST" ? http.post : http.get;
    return method(`${baseUrl}${route.path}`, ({ request, params }) =>
      respond(name as RouteName, route, request, params),
    );
  });
  handlers.push(
    http.options(
      `${baseUrl}/api/v1/*`,
      () =>
        new HttpResponse(null, {
          status: 204,
          headers: { ...PREFLIGHT, "x-request-id": crypto.randomUUID() },
        }),
    ),
    // Anything else under the base URL: the server's 405 (a path of the contract, another method) or 404.
    http.all(`${baseUrl}/*`, ({ request }) => {
      const path = new URL(request.url).pathname;
      const methods = new Set(
        listRoutes()
          .filter(({ route }) => new RegExp(`^${route.path.replace(/:[a-z_]+/g, "[^/]+")}$`).test(path))
          .flatMap(({ route }) => (route.method === "GET" ? ["GET", "HEAD"] : [route.method])),
      );
      const allowed = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter(
        (m) => m !== request.method && methods.has(m),
      );
      const reply =
        allowed.length > 0
          ? errorReply(
              "method_not_allowed",
              `${request.method} is not allowed here; use ${allowed.join(", ")}`,
              { allowed },
              { allow: allowed.join(", ") },
            )
          : errorReply("not_found", `No route ${request.method} ${path}`, { resource: "route" });
      const headers = {
        ...(request.headers.get("origin") ? CORS : {}),
        "x-request-id": crypto.randomUUID(),
        "content-type": JSON_TYPE,
        ...reply.headers,
      };
      return new HttpResponse(JSON.stringify(reply.body), { status: reply.status, headers });
    }),
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
