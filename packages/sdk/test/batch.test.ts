import { PLAN_SLUGS, PLANS } from "@gmi/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GmiClient, QuotaExceededError, ValidationError } from "../src/index.js";
import { chunkRanges } from "../src/internal/batch.js";
import { API_KEY, BASE_URL, makeClient, useGmiMocks } from "./helpers.js";

const gmi = useGmiMocks();
const batchRequests = () => gmi.state.requests.filter((r) => r.route.endsWith(".batch"));
const sentIds = (body: unknown) =>
  (body as { requests: Array<{ game_id?: number; id?: number }> }).requests.map((e) => e.game_id ?? e.id);
/** The game id an item answers for, found or not. */
const itemId = (item: { status: number; data?: unknown }) => {
  const data = item.data as { game?: { id: number }; game_id?: number } | undefined;
  return data?.game?.id ?? data?.game_id;
};

describe("chunking", () => {
  // Known ids (101-400), unknown ids, repeats and invalid ids (0: a per-item 422), interleaved.
  const ids = Array.from({ length: 1001 }, (_, i) =>
    i % 97 === 5 ? 0 : i % 7 === 3 ? 90_000 + i : 101 + ((i * 37) % 300),
  );
  const invalid = ids.filter((id) => id === 0).length;

  it.each(PLAN_SLUGS)(
    "1,001 ids on the %s plan: plan-sized chunks, input order, 207s merged",
    async (slug) => {
      gmi.scenarios.plan(slug);
      gmi.scenarios.failItems([150, 250], { status: 503, times: 2 });
      const max = PLANS[slug].max_batch_size;
      // The mock keeps the plan's windows as the server does: 1,001 units pass a Free key's minute
      // and day. This test is about chunks, so each of the mock's readings of time is a day later.
      const clock = gmi.state.now;
      let day = Date.parse("2026-11-01T00:00:00Z");
      gmi.state.now = () => (day += 86_400_000);
      const result = await makeClient()
        .intelligence.batch(ids)
        .finally(() => {
          gmi.state.now = clock;
        });

      expect(result.data.map((item, i) => (ids[i] === 0 ? 0 : itemId(item)))).toEqual(ids);
      expect(result.data.map((item) => item.status)).toEqual(ids.map((id) => (id === 0 ? 422 : 200)));
      expect(result.meta.batch).toEqual({ total: 1001, succeeded: 1001 - invalid, failed: invalid });
      expect(result.meta.chunks).toBe(Math.ceil(1001 / max));
      const sent = batchRequests();
      const chunks = sent.filter((r) => !r.idempotencyKey?.includes(":retry-"));
      expect(chunks).toHaveLength(Math.ceil(1001 / max));
      expect(sent.every((r) => sentIds(r.body).length <= max)).toBe(true);
      expect(chunks.flatMap((r) => sentIds(r.body)).sort()).toEqual([...ids].sort());
      // The 503 items went again on their own, only them.
      const retried = sent
        .filter((r) => r.idempotencyKey?.includes(":retry-"))
        .flatMap((r) => sentIds(r.body));
      expect(new Set(retried)).toEqual(new Set([150, 250]));
      expect(gmi.state.requests.filter((r) => r.route === "account.me")).toHaveLength(1);
      const notFound = result.data.find((item) => itemId(item) === 90_003);
      expect(notFound).toEqual({ status: 200, data: { game_id: 90_003, found: false } });
    },
  );

  it("chunk keys derive from one base key; a rerun replays instead of redoing", async () => {
    const client = makeClient({ maxBatchSize: 10 });
    const first = await client.intelligence.batch(ids.slice(0, 25), { idempotencyKey: "sync-2026-11-20" });
    expect(first.idempotencyKey).toBe("sync-2026-11-20");
    expect(batchRequests().map((r) => r.idempotencyKey)).toEqual([
      "sync-2026-11-20:0-9",
      "sync-2026-11-20:10-19",
      "sync-2026-11-20:20-24",
    ]);
    const used = gmi.state.monthUsed;
    const again = await client.intelligence.batch(ids.slice(0, 25), { idempotencyKey: "sync-2026-11-20" });
    expect(again.data).toEqual(first.data);
    expect(gmi.state.monthUsed).toBe(used); // replays are not work
  });

  it("a fresh key per call when none is given", async () => {
    const a = await makeClient().signals.batch([101]);
    const b = await makeClient().signals.batch([101]);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(batchRequests()[0]?.body).toEqual({ requests: [{ id: 101 }] });
  });

  it("reads max_batch_size once per client, and can be told instead", async () => {
    const client = makeClient();
    await client.intelligence.batch([101, 102]);
    await client.signals.batch([101, 102]);
    expect(gmi.state.requests.filter((r) => r.route === "account.me")).toHaveLength(1);
    await makeClient({ maxBatchSize: 1 }).intelligence.batch([101, 102]);
    await makeClient().intelligence.batch([101, 102], { chunkSize: 1 });
    expect(gmi.state.requests.filter((r) => r.route === "account.me")).toHaveLength(1);
  });

  it("bounded concurrency", async () => {
    let inFlight = 0;
    let peak = 0;
    const client = new GmiClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      maxBatchSize: 5,
      batchConcurrency: 3,
      fetch: async (url, init) => {
        peak = Math.max(peak, ++inFlight);
        try {
          return await fetch(url, init);
        } finally {
          inFlight--;
        }
      },
    });
    const result = await client.intelligence.batch(ids.slice(0, 60));
    expect(result.meta.chunks).toBe(12);
    expect(peak).toBe(3);
  });

  it("no ids, no request", async () => {
    const result = await makeClient().intelligence.batch([]);
    expect(result.data).toEqual([]);
    expect(result.meta.batch).toEqual({ total: 0, succeeded: 0, failed: 0 });
    expect(gmi.state.requests).toEqual([]);
  });
});

describe("per-item outcomes", () => {
  it("mixed 207 answers merge; only retryable items are re-sent, on their own", async () => {
    gmi.scenarios.failItems([105, 130], { status: 503 });
    gmi.scenarios.failItems([110], { status: 429 });
    const ids = [101, 0, 105, 110, 999_999, 130, 140];
    const result = await makeClient({ maxBatchSize: 4 }).intelligence.batch(ids, { idempotencyKey: "k" });

    expect(result.data.map((item) => item.status)).toEqual([200, 422, 200, 200, 200, 200, 200]);
    expect(result.meta.batch).toEqual({ total: 7, succeeded: 6, failed: 1 });
    const invalid = result.data[1];
    expect(invalid && "error" in invalid && invalid.error.code).toBe("validation_failed");
    const sent = batchRequests().map((r) => [r.idempotencyKey, sentIds(r.body)]);
    expect(sent).toEqual(
      expect.arrayContaining([
        ["k:0-3", [101, 0, 105, 110]],
        ["k:4-6", [999_999, 130, 140]],
        ["k:0-3:retry-1", [105, 110]],
        ["k:4-6:retry-1", [130]],
      ]),
    );
    expect(sent).toHaveLength(4);
    expect(result.meta.requests).toBe(4);
  });

  it("items still failing after the retries stay failed, per item", async () => {
    gmi.scenarios.failItems([102], { status: 500, times: 10 });
    const result = await makeClient().intelligence.batch([101, 102, 103], { itemRetries: 2 });
    expect(result.data.map((item) => item.status)).toEqual([200, 500, 200]);
    expect(result.meta.batch).toEqual({ total: 3, succeeded: 2, failed: 1 });
    const failed = result.data[1];
    expect(failed && "error" in failed && failed.error.code).toBe("server_error");
    expect(batchRequests()).toHaveLength(3);
  });

  it("a chunk refused as a whole stops the call with its error", async () => {
    gmi.scenarios.quotaExceeded({ resetsIn: 3600 });
    const error = await makeClient({ maxBatchSize: 10 })
      .intelligence.batch([101, 102])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ status: 402, retryAfter: 3600, attempts: 1 });
  });

  it("a chunk larger than the plan allows is the server's 422 batch_too_large", async () => {
    gmi.scenarios.plan("free");
    const error = await makeClient()
      .intelligence.batch([101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111], { chunkSize: 11 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: "batch_too_large", details: { max_items: 10, received: 11 } });
  });
});

describe("chunk boundaries (property-based)", () => {
  it("chunkRanges tiles [0, n) with chunks of at most size, all full but the last", () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.integer({ min: 1, max: 300 }), (n, size) => {
        const ranges = chunkRanges(n, size);
        expect(ranges).toHaveLength(Math.ceil(n / size));
        let at = 0;
        ranges.forEach(([start, end], i) => {
          expect(start).toBe(at);
          expect(end - start).toBe(i < ranges.length - 1 ? size : n - start);
          expect(end - start).toBeGreaterThan(0);
          at = end;
        });
        expect(at).toBe(n);
      }),
    );
  });

  it("every id is sent exactly once and answered in input order, whatever the count and size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 700 }),
        fc.integer({ min: 1, max: 260 }),
        fc.integer({ min: 1, max: 6 }),
        async (ids, size, concurrency) => {
          const sent: number[][] = [];
          const client = new GmiClient({
            apiKey: API_KEY,
            baseUrl: BASE_URL,
            fetch: async (_url, init) => {
              const elements = JSON.parse(String(init.body)).requests as Array<{ game_id: number }>;
              sent.push(elements.map((e) => e.game_id));
              await Promise.resolve();
              return Response.json({
                data: elements.map((e) => ({ status: 200, data: { game_id: e.game_id, found: false } })),
                meta: {
                  period: "7d",
                  period_date: "2026-11-20",
                  batch: { total: 0, succeeded: 0, failed: 0 },
                },
              });
            },
          });
          const result = await client.intelligence.batch(ids, { chunkSize: size, concurrency });
          expect(result.data.map(itemId)).toEqual(ids);
          expect(sent.every((chunk) => chunk.length >= 1 && chunk.length <= size)).toBe(true);
          expect(sent.flat().sort()).toEqual([...ids].sort());
          expect(result.meta.batch.total).toBe(ids.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
