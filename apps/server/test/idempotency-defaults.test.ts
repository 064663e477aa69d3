import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { ignoreTerminationOnDrop, json, seedAnalytics } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/** The idempotency fingerprint compares the query as the endpoint reads it (issue 21, item 5). */
const db = useTestDatabase();
let t: TestApp;
let apiKey: string;
beforeAll(async () => {
  ignoreTerminationOnDrop(db().pool);
  await seedAnalytics(db());
  t = await startTestApp(db().pool);
  apiKey = (await createTenant(db().pool)).key;
});
afterAll(() => t?.close());

let keys = 0;
const newKey = () => `defaults-${process.pid}-${++keys}`;
const post = (key: string, query: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/v1/intelligence/batch${query}`,
    headers: { ...bearer(apiKey), ...json, "idempotency-key": key },
    payload: JSON.stringify({ requests: [{ game_id: 101 }] }),
  });

describe("Idempotency-Key and query defaults", () => {
  it("replays a request whose default is spelled out the second time, and the other way round", async () => {
    for (const [first, second] of [
      ["", "?period=7d"],
      ["?period=7d", ""],
      ["?date=2026-06-14&period=7d", "?period=7d&date=2026%2D06%2D14"],
    ]) {
      const key = newKey();
      const original = await post(key, first as string);
      expect(original.statusCode, original.body).toBe(200);
      const again = await post(key, second as string);
      expect(again.statusCode, `${first} then ${second}: ${again.body}`).toBe(200);
      expect(again.headers["idempotency-replayed"]).toBe("true");
      expect(again.body).toBe(original.body);
    }
  });

  it("still refuses the key with a different period", async () => {
    const key = newKey();
    expect((await post(key, "")).statusCode).toBe(200);
    const other = await post(key, "?period=30d");
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe("idempotency_key_reuse");
  });
});
