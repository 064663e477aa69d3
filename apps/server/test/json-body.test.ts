import { ErrorEnvelopeSchema } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { seedAnalytics } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();
let t: TestApp;
let key: string;
beforeAll(async () => {
  await seedAnalytics(db());
  t = await startTestApp(db().pool);
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
});
afterAll(() => t?.close());

const batch = (payload: string, idempotencyKey: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/intelligence/batch",
    headers: { ...bearer(key), "content-type": "application/json", "idempotency-key": idempotencyKey },
    payload,
  });

describe("JSON bodies", () => {
  it("nested thousands of levels deep: a 422 on the body, also with an Idempotency-Key (was a 500)", async () => {
    const deep = `{"requests":${'{"a":['.repeat(5_000)}1${"]}".repeat(5_000)}}`;
    const response = await batch(deep, "deep-1");
    expect(response.statusCode).toBe(422);
    const error = ErrorEnvelopeSchema.parse(response.json()).error;
    expect(error.code).toBe("validation_failed");
    expect(error.message).toContain("must not nest deeper than 32 levels");
  });

  it("of ordinary depth are parsed as before", async () => {
    const response = await batch(JSON.stringify({ requests: [{ game_id: 101 }] }), "plain-1");
    expect(response.statusCode).toBe(200);
  });

  it("with a __proto__ key are still refused in the envelope", async () => {
    const response = await batch('{"requests":[{"game_id":101}],"__proto__":{"x":1}}', "proto-1");
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(ErrorEnvelopeSchema.safeParse(response.json()).success).toBe(true);
  });
});
