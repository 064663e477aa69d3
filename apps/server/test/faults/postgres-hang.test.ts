import { ErrorEnvelopeSchema } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { withReadTimeout } from "../../src/data/sql.js";
import { isDatabaseUnavailable } from "../../src/data/unavailable.js";
import { billingMonth } from "../../src/domain/limits/windows.js";
import { bearer } from "../helpers/app.js";
import { createTenant } from "../helpers/tenant.js";
import { canRunPostgres, waitFor } from "./processes.js";
import { seededPostgresApp } from "./seeded-postgres.js";

/**
 * A PostgreSQL of the test's own that stops answering (SIGSTOP) under a running app, its sockets
 * open: a request gives up after DATABASE_WAIT_MS (or the pool's connect timeout) with a 503,
 * instead of waiting for as long as the server hangs, and the same app serves again once it answers.
 */
const WAIT_MS = 1_000;
/** db/open.ts: a connection PostgreSQL does not complete within this fails. */
const CONNECT_TIMEOUT_MS = 5_000;

// No answer kept in memory: every read of the test goes to PostgreSQL. A key once looked up is
// kept for the whole test, so what a request waits for is its charge or its reads.
const pg = seededPostgresApp({
  databaseWaitMs: WAIT_MS,
  env: { RESPONSE_CACHE_TTL_MS: "0", AUTH_CACHE_TTL_MS: "60000" },
});

const usedInRow = async (org: number) => {
  const { rows } = await pg.db.pool.query<{ used: string }>(
    "SELECT used::text FROM usage_months WHERE organization_id = $1 AND month = $2",
    [org, billingMonth(Date.now())],
  );
  return Number(rows[0]?.used ?? 0);
};

describe.skipIf(!canRunPostgres)("PostgreSQL that stops answering", () => {
  it("reads are answered 503 with Retry-After within the timeouts, and served again once it answers", async () => {
    // Enterprise: usage is counted in memory and written later, so a read writes nothing on its way.
    const tenant = await createTenant(pg.db.pool, { plan: "enterprise" });
    const read = (url: string) => pg.t.app.inject({ url, headers: bearer(tenant.key) });
    expect((await read("/api/v1/games/titles?limit=1")).statusCode).toBe(200);
    const idle = pg.db.pool.idleCount;
    expect(idle).toBeGreaterThan(0);

    await pg.server.freeze();
    try {
      const started = Date.now();
      // More reads than idle connections: some wait on an open connection (the read timeout),
      // the others for a new one that PostgreSQL never completes (the connect timeout).
      const urls = Array.from({ length: idle + 2 }, (_, i) => `/api/v1/games/titles?limit=${i + 2}`);
      const answers = await Promise.all(urls.map(read));
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(503);
        expect(ErrorEnvelopeSchema.parse(answer.json()).error.code).toBe("service_unavailable");
        expect(answer.headers["retry-after"]).toBe("5");
      }
      expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
    } finally {
      pg.server.thaw();
    }

    // The same app and pool: the connections given up on are gone, new ones are made.
    const after = await read("/api/v1/games/titles?limit=9");
    expect(after.statusCode, after.body).toBe(200);
  }, 60_000);

  it("a hard-capped request waits at most DATABASE_WAIT_MS for its quota reservation, which goes on and serves the next request", async () => {
    // Starter: each request that finds its lease empty reserves in PostgreSQL before it is served.
    const tenant = await createTenant(pg.db.pool, { plan: "starter" });
    const read = () => pg.t.app.inject({ url: "/api/v1/consoles", headers: bearer(tenant.key) });
    expect((await read()).statusCode).toBe(200);
    expect(await usedInRow(tenant.organizationId)).toBe(1);
    expect(pg.db.pool.idleCount).toBeGreaterThan(0);

    await pg.server.freeze();
    try {
      const started = Date.now();
      const refused = await read();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(ErrorEnvelopeSchema.parse(refused.json()).error.code).toBe("service_unavailable");
      expect(refused.headers["retry-after"]).toBe("5");
      // The wait, not the connect timeout: the reservation went out on an open connection.
      expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS);
    } finally {
      pg.server.thaw();
    }

    // The reservation ran once PostgreSQL answered: its unit is in the row and in this server's
    // lease, and the next request spends it without reserving again (one unit, not two).
    await waitFor(async () => (await usedInRow(tenant.organizationId)) === 2, 10_000);
    expect((await read()).statusCode).toBe(200);
    expect(await usedInRow(tenant.organizationId)).toBe(2);
  }, 60_000);

  it("a read given up on reads as unavailable and drops its connection; without a timeout it is the pool itself", async () => {
    expect(withReadTimeout(pg.db.pool, 0)).toBe(pg.db.pool);
    const reads = withReadTimeout(pg.db.pool, 200);
    let removed = 0;
    pg.db.pool.on("remove", () => removed++);
    const slow = await reads.query("SELECT pg_sleep(2)").catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(Error);
    expect((slow as Error).message).toMatch(/Query read timeout/);
    expect(isDatabaseUnavailable(slow)).toBe(true);
    // Its connection is not handed to the next query while the statement still runs on it.
    await waitFor(async () => removed === 1, 5_000);
    // Answered within the timeout: the same rows as the pool's own, parameters and prepared statements alike.
    const plain = await reads.query<{ n: number }>("SELECT $1::int AS n", [7]);
    expect(plain.rows).toEqual([{ n: 7 }]);
    const named = await reads.query<{ n: number }>({
      name: "gmi_hang_test",
      text: "SELECT $1::int + 1 AS n",
      values: [7],
    });
    expect(named.rows).toEqual([{ n: 8 }]);
  }, 30_000);
});
