import { type ContractRoute, listRoutes } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../src/demo/seed.js";
import { DEFAULT_SCORING } from "../../src/domain/analytics/weights.js";
import type { TestApp } from "../helpers/app.js";
import { startTestApp } from "../helpers/app.js";
import { openApiChecker } from "../helpers/openapi.js";
import { useTestDatabase } from "../helpers/setup.js";
import { createTenant, createTestPlan } from "../helpers/tenant.js";
import type { FuzzCase } from "./hostile.js";
import { fuzzSeed, hostileRequest, prng, sweepRequests } from "./hostile.js";

/**
 * The hostile requests of the contract fuzzer (hostile.ts), checked against the served OpenAPI
 * document instead of the envelope alone: whatever a client sends, each operation answers only
 * with a status its operation lists, in the documented shape. Answers that are not the
 * operation's are left out: another method (405 belongs to the path) and a path that no longer
 * matches any route (a `/` in a value: `404 {resource: "route"}`).
 */
const SEED = fuzzSeed();
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;
/** A key of a published plan: `/me` names the plan, and a test plan's slug is not in the document. */
let publishedKey: string;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 5, endDate: "2026-11-20", rollupDays: 1 });
  t = await startTestApp(db().pool);
  const plan = await createTestPlan(db().pool, { perMinute: 10_000_000, perDay: 10_000_000, quota: null });
  key = (await createTenant(db().pool, { plan })).key;
  publishedKey = (await createTenant(db().pool, { plan: "enterprise" })).key;
  checker = openApiChecker((await t.app.inject({ url: "/api/v1/openapi.json" })).json());
}, 180_000);
afterAll(() => t?.close());

// Free routes (`/me`) are never refused by a limit, so the published plan's windows do not matter.
const keyFor = (route: ContractRoute) => (route.metadata.metered === false ? publishedKey : key);

const isRouteMiss = (body: string) => {
  try {
    return (
      (JSON.parse(body) as { error?: { details?: { resource?: string } } }).error?.details?.resource ===
      "route"
    );
  } catch {
    return false;
  }
};

const check = async (cases: Iterable<{ route: ContractRoute; fuzz: FuzzCase }>) => {
  const failures: string[] = [];
  let checked = 0;
  for (const { route, fuzz } of cases) {
    if (fuzz.request.method !== route.method) continue;
    const response = await t.app.inject(fuzz.request);
    if (response.statusCode === 404 && isRouteMiss(response.body)) continue;
    checked += 1;
    const problems = checker.problems(route.method, route.path.replace(/:([a-z_]+)/g, "{$1}"), response);
    if (problems.length > 0) {
      failures.push(`${fuzz.label}: ${problems.join("; ")}\n    ${String(fuzz.request.url).slice(0, 160)}`);
    }
  }
  return { checked, failures };
};

describe("hostile requests against the OpenAPI document", () => {
  it("the sweep of every path and query field answers as each operation documents", async () => {
    const cases = listRoutes().flatMap(({ route }) =>
      sweepRequests(route, keyFor(route)).map((fuzz) => ({ route, fuzz })),
    );
    const { checked, failures } = await check(cases);
    expect(checked).toBeGreaterThan(500);
    expect(failures.slice(0, 20), `${failures.length} answers off the document`).toEqual([]);
  }, 120_000);

  it(`${RUNS} random hostile requests answer as each operation documents`, async () => {
    const rng = prng(SEED);
    const routes = listRoutes();
    const cases = function* () {
      for (let i = 0; i < RUNS; i++) {
        const route = routes[i % routes.length]?.route;
        if (route) yield { route, fuzz: hostileRequest(rng, route, keyFor(route)) };
      }
    };
    const { checked, failures } = await check(cases());
    expect(checked).toBeGreaterThan(RUNS / 2);
    expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} answers off the document`).toEqual(
      [],
    );
  }, 120_000);
});
