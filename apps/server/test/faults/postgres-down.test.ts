import { ErrorEnvelopeSchema } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { IDLE_FLUSHES } from "../../src/domain/limits/lease.js";
import { billingMonth } from "../../src/domain/limits/windows.js";
import { bearer } from "../helpers/app.js";
import { createTenant } from "../helpers/tenant.js";
import { canRunPostgres } from "./processes.js";
import { seededPostgresApp } from "./seeded-postgres.js";

/**
 * A PostgreSQL of the test's own, stopped and started again under a running app: 503 with
 * Retry-After within a bounded time while it is down, the same pool serving again once it is
 * back (no restart), and a keyed batch refused during the outage processed exactly once after it.
 */
const pg = seededPostgresApp();

const BODY = JSON.stringify({ requests: [{ game_id: 101 }, { id: 103 }] });
const batch = (key: string, idempotencyKey: string) =>
  pg.t.app.inject({
    method: "POST",
    url: "/api/v1/intelligence/batch",
    headers: { ...bearer(key), "content-type": "application/json", "idempotency-key": idempotencyKey },
    payload: BODY,
  });

describe.skipIf(!canRunPostgres)("PostgreSQL down and restarted", () => {
  it("503 service_unavailable with Retry-After while down; the pool recovers; a keyed batch is processed once", async () => {
    // Starter: a hard cap, its quota reserved in PostgreSQL, so a half-charged request would show.
    const tenant = await createTenant(pg.db.pool, { plan: "starter" });
    const read = () => pg.t.app.inject({ url: "/api/v1/games/titles?limit=1", headers: bearer(tenant.key) });
    expect((await read()).statusCode).toBe(200);

    await pg.server.stop("fast");
    const started = Date.now();
    const answers = [...(await Promise.all([read(), read(), read()])), await batch(tenant.key, "outage-key")];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(503);
      expect(ErrorEnvelopeSchema.parse(answer.json()).error.code).toBe("service_unavailable");
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.headers["x-request-id"]).toBeDefined();
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    const ready = await pg.t.app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers["retry-after"]).toBe("5");

    await pg.server.start();
    // The same app and pool: dead connections are replaced as they are found.
    expect((await read()).statusCode).toBe(200);
    expect((await pg.t.app.inject({ url: "/readyz" })).statusCode).toBe(200);

    // The batch refused during the outage left nothing behind: processed now, once, metered once.
    const { rows: before } = await pg.db.pool.query(
      "SELECT 1 FROM idempotency_records WHERE key = 'outage-key'",
    );
    expect(before).toHaveLength(0);
    const processed = await batch(tenant.key, "outage-key");
    expect(processed.statusCode).toBe(200);
    expect(processed.headers["idempotency-replayed"]).toBeUndefined();
    expect((await batch(tenant.key, "outage-key")).headers["idempotency-replayed"]).toBe("true");
    // Leases of hard-capped plans count as used until given back: one busy flush, then IDLE_FLUSHES idle ones.
    for (let i = 0; i <= IDLE_FLUSHES; i++) await pg.t.usage.flush();
    const { rows } = await pg.db.pool.query<{ used: number }>(
      "SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2",
      [tenant.organizationId, billingMonth(Date.now())],
    );
    // 1 read before the outage, 1 after, 2 batch elements; nothing for the refused requests.
    expect(Number(rows[0]?.used)).toBe(4);
  }, 90_000);
});
