import { ErrorEnvelopeSchema, listRoutes } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../src/demo/seed.js";
import { DEFAULT_SCORING } from "../../src/domain/analytics/weights.js";
import { rollupDate } from "../../src/rollup/rollup-dates.js";
import type { TestApp } from "../helpers/app.js";
import { startTestApp } from "../helpers/app.js";
import { useTestDatabase } from "../helpers/setup.js";
import { createTenant, createTestPlan } from "../helpers/tenant.js";
import type { FuzzCase } from "./hostile.js";
import { fuzzSeed, hostileRequest, prng, sweepRequests } from "./hostile.js";

/**
 * The contract-driven fuzzer: every route of the contract, every path, query, header and body
 * field, hostile values (hostile.ts), against the real app on PostgreSQL with computed analytics.
 * Every answer must be a non-5xx, an error in the spec's envelope (or a valid 2xx), with an
 * X-Request-Id. Replay a failure with FUZZ_SEED=<the printed seed>; FUZZ_RUNS sets the count.
 */
const SEED = fuzzSeed();
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_400);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 5, endDate: "2026-11-20", rollupDays: 1 });
  await rollupDate(db(), "2026-11-19", DEFAULT_SCORING);
  t = await startTestApp(db().pool);
  // Limits far beyond the run, so every request reaches validation rather than a 429.
  const plan = await createTestPlan(db().pool, { perMinute: 10_000_000, perDay: 10_000_000, quota: null });
  key = (await createTenant(db().pool, { plan })).key;
}, 180_000);
afterAll(() => t?.close());

/** What is wrong with an answer, if anything. */
const problemsOf = async (fuzz: FuzzCase): Promise<{ status: number; problems: string[]; body: string }> => {
  const response = await t.app.inject(fuzz.request);
  const problems: string[] = [];
  if (response.statusCode >= 500) problems.push(`status ${response.statusCode}`);
  if (!UUID.test(String(response.headers["x-request-id"] ?? ""))) problems.push("no X-Request-Id");
  if (response.statusCode >= 400 && fuzz.request.method !== "HEAD") {
    let parsed: unknown;
    try {
      parsed = response.json();
    } catch {
      parsed = undefined;
    }
    if (!ErrorEnvelopeSchema.safeParse(parsed).success) problems.push("body is not the error envelope");
  }
  return { status: response.statusCode, problems, body: response.body };
};

const run = async (name: string, cases: Iterable<FuzzCase>) => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let count = 0;
  for (const fuzz of cases) {
    const { status, problems, body } = await problemsOf(fuzz);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (problems.length > 0) {
      failures.push(
        `#${count} ${fuzz.label}: ${problems.join("; ")}\n    ${fuzz.request.method} ${String(fuzz.request.url).slice(0, 160)}\n    → ${body.slice(0, 200)}`,
      );
    }
    count += 1;
  }
  const spread = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]));
  process.stdout.write(`contract fuzzer (${name}): ${count} requests, statuses ${JSON.stringify(spread)}\n`);
  return { count, failures };
};

describe("contract fuzzer", () => {
  it("sweeps every path and query field of every route with each hostile family", async () => {
    const cases = listRoutes().flatMap(({ route }) => sweepRequests(route, key));
    const { failures } = await run("sweep", cases);
    expect(failures.slice(0, 25), `${failures.length} failing requests`).toEqual([]);
  }, 120_000);

  it(`answers ${RUNS} random hostile requests over every route without a 5xx, in the envelope, with X-Request-Id`, async () => {
    process.stdout.write(`contract fuzzer: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n`);
    const rng = prng(SEED);
    const routes = listRoutes();
    // Round robin over the routes, so each gets its share whatever the seed.
    const cases = function* () {
      for (let i = 0; i < RUNS; i++) {
        const route = routes[i % routes.length]?.route;
        if (route) yield hostileRequest(rng, route, key);
      }
    };
    const { count, failures } = await run(`random, FUZZ_SEED=${SEED}`, cases());
    expect(count).toBe(RUNS);
    expect(failures.slice(0, 25), `FUZZ_SEED=${SEED}: ${failures.length} failing requests`).toEqual([]);
  }, 120_000);
});
