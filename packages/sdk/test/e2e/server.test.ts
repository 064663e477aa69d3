import { describe, expect, inject, it } from "vitest";
import { AuthenticationError, GmiClient, NotFoundError, ValidationError } from "../../src/index.js";
import { validateResponses } from "../../src/validate/index.js";

/** End to end against the real server of this repository, started by test/e2e/start-server.ts. */
const { baseUrl, apiKey } = inject("e2e");

// Every answer is also checked against the contract's zod schemas: the server conforms or this fails.
const client = () => new GmiClient({ apiKey, baseUrl, validate: validateResponses() });

describe("the SDK against the real server", () => {
  it("reads the account and its plan", async () => {
    const me = await client().me();
    expect(me.data.plan.max_batch_size).toBeGreaterThan(0);
    expect(me.data.api_key.scopes).toEqual(
      expect.arrayContaining(["intelligence.read", "demand-intent.read", "games.read"]),
    );
  });

  it("reads real catalog pages in both modes, capped by the plan", async () => {
    const gmi = client();
    const { data: account } = await gmi.me();
    const first = await gmi.games.titles({ limit: 100_000 });
    expect(first.meta.pagination.per_page).toBe(account.plan.max_page_size);
    const total = first.meta.pagination.total;
    const rows = await gmi.games.titles().toArray({ maxItems: 5_000 });
    expect(rows.length).toBe(Math.min(total, 5_000));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const byPage = await gmi.games.titles({ paginate: "page" }).toArray({ maxItems: 5_000 });
    expect(byPage).toEqual(rows);
    const consoles = await gmi.consoles.list().toArray({ maxItems: 1_000 });
    const games = await gmi.games.byConsole(consoles[0]?.id ?? 1).toArray({ maxItems: 5_000 });
    expect(games.length).toBe(consoles[0]?.game_count ?? 0);
    const slug = games[0]?.marketplace_game_name;
    if (slug) expect((await gmi.games.bySlug(slug)).data.map((g) => g.marketplace_game_name)).toContain(slug);
    await gmi.games.slugs().toArray({ maxItems: 5_000 });
  });

  it("reads the leaderboards and profiles (needs computed analytics)", async () => {
    const gmi = client();
    const leaders = await gmi.intelligence.list({ limit: 5 });
    const leader = leaders.data[0];
    if (leader) {
      const profile = await gmi.intelligence.get(leader.game.id, { period: leaders.meta.period });
      expect(profile.data.rank).toBe(1);
      await gmi.intelligence.conditions(leader.game.id);
      await gmi.searches.gameConditions(leader.game.id);
    }
    await gmi.intelligence.list({ sort: "value" }).toArray({ maxItems: 1_000 });
    await gmi.searches.list({ sort: "unmet" }).toArray({ maxItems: 300 });
    await gmi.searches.trending().toArray({ maxItems: 300 });
    await gmi.searches.conditions();
  });

  it("chunks a batch to the plan, keeps input order, replays a rerun (needs analytics)", async () => {
    const gmi = client();
    const { data: account } = await gmi.me();
    const known = (await gmi.games.titles().toArray({ maxItems: account.plan.max_batch_size * 2 + 3 })).map(
      (r) => r.id,
    );
    const ids = [...known, 2_147_483_647, 0];
    const key = `e2e-${Date.now()}`;
    const result = await gmi.intelligence.batch(ids, { idempotencyKey: key });
    expect(result.meta.chunks).toBe(Math.ceil(ids.length / account.plan.max_batch_size));
    expect(result.data).toHaveLength(ids.length);
    expect(result.data.at(-2)).toEqual({ status: 200, data: { game_id: 2_147_483_647, found: false } });
    expect(result.data.at(-1)?.status).toBe(422);
    result.data.slice(0, known.length).forEach((item, i) => {
      expect(item.status).toBe(200);
      if ("data" in item && item.data.found) expect(item.data.game.id).toBe(known[i]);
    });
    const again = await gmi.intelligence.batch(ids, { idempotencyKey: key });
    expect(again.data).toEqual(result.data);
    const signals = await gmi.signals.batch(known.slice(0, 3));
    expect(signals.meta.batch.total).toBe(3);
  });

  it("maps real errors, with request ids", async () => {
    const notFound = await client()
      .games.get(2_147_483_646)
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const invalid = await Promise.resolve(client().games.titles({ limit: 0 })).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    const anonymous = new GmiClient({ apiKey: "not-a-real-key", baseUrl });
    expect(await anonymous.me().catch((e: unknown) => e)).toBeInstanceOf(AuthenticationError);
  });
});
