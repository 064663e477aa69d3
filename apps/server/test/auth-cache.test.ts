import type { Scope } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { seedAnalytics } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant, suspendOrganization } from "./helpers/tenant.js";

const db = useTestDatabase();
let t: TestApp;
beforeAll(async () => {
  await seedAnalytics(db());
  // The key cache on, as in production: a key's second request is decided without a promise.
  t = await startTestApp(db().pool, { env: { AUTH_CACHE_TTL_MS: "60000" } });
});
afterAll(() => t?.close());

/** What a response says, but for what differs between any two requests (id, date, the window's state). */
const outcome = (response: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  const {
    "x-request-id": id,
    date: _date,
    "x-ratelimit-remaining": _left,
    "x-ratelimit-reset": _reset,
    ...headers
  } = response.headers;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return { status: response.statusCode, body: response.body, headers };
};

describe("authentication with the key cache", () => {
  const send = (authorization?: string) =>
    t.app.inject({
      url: "/api/v1/games/titles?limit=1",
      headers: authorization === undefined ? {} : { authorization },
    });
  const tenant = (options: { scopes?: Scope[] } = {}) => createTenant(db().pool, options);

  it("answers a key the same from the cache as from its first read: 200, 401, 403 and their headers", async () => {
    const valid = await tenant();
    const withoutScope = await tenant({ scopes: SCOPES.filter((scope) => scope !== "games.read") });
    const suspended = await tenant();
    await suspendOrganization(db().pool, suspended.organizationId);
    const headers = [
      undefined,
      "Basic abc",
      "Bearer nope",
      bearer(`gmi_live_${"A".repeat(43)}`).authorization,
      bearer(valid.key).authorization,
      bearer(withoutScope.key).authorization,
      bearer(suspended.key).authorization,
    ];
    const first = [];
    for (const header of headers) first.push(outcome(await send(header)));
    const again = [];
    for (const header of headers) again.push(outcome(await send(header)));
    expect(again).toEqual(first);
    expect(first.map((o) => o.status)).toEqual([401, 401, 401, 401, 200, 403, 403]);
    // A refused known key still carries its organization's window (plugins/limits.ts).
    expect(first[5]?.headers["x-ratelimit-limit"]).toBeDefined();
  });
});
