import { describe, expect, it } from "vitest";
import { GmiClient, UnexpectedResponseError } from "../src/index.js";
import { API_KEY, BASE_URL, makeClient, useGmiMocks } from "./helpers.js";

const gmi = useGmiMocks();
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const titleRequests = () =>
  gmi.state.requests.filter((r) => r.route === "games.titles").map((r) => query(r.url));

describe("await: the first page, as asked", () => {
  it("is page mode by default, with the server's meta and links", async () => {
    const page = await makeClient().games.titles();
    expect(page.meta.pagination).toEqual({ mode: "page", page: 1, per_page: 25, total: 300, last_page: 12 });
    expect(page.data).toHaveLength(25);
    // Every parameter as resolved, as the server writes its links.
    expect(page.links.next).toBe(`${BASE_URL}/api/v1/games/titles?limit=25&page=2&paginate=page`);
    expect(page.hasNextPage()).toBe(true);
    expect(page.response.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const second = await page.nextPage();
    expect(second?.meta.pagination).toMatchObject({ page: 2 });
  });

  it("forwards every typed parameter", async () => {
    const page = await makeClient().intelligence.list({
      sort: "demand",
      console_id: 1,
      period: "30d",
      limit: 5,
    });
    expect(page.meta).toMatchObject({ period: "30d", sort: "demand", period_date: "2026-11-20" });
    // The links pin the date answered, as the server's do.
    expect(new URL(page.links.next ?? "").searchParams.get("date")).toBe("2026-11-20");
    expect(page.data.every((row) => row.game.console_id === 1)).toBe(true);
    expect(page.data.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5]);
    const indexes = page.data.map((row) => row.demand.index);
    expect([...indexes].sort((a, b) => b - a)).toEqual(indexes);
  });

  it("path parameters and an empty page for an unknown console", async () => {
    const client = makeClient();
    const snes = await client.games.byConsole(1, { limit: 10 });
    expect(snes.data.every((g) => g.console_id === 1)).toBe(true);
    const none = await client.games.byConsole(99);
    expect(none.data).toEqual([]);
    expect(none.meta.pagination).toMatchObject({ total: 0, last_page: 1 });
    expect(none.hasNextPage()).toBe(false);
  });
});

describe("for await: every row across pages", () => {
  it("walks in cursor mode by default, asking for large pages (the Pro plan serves 100)", async () => {
    const rows = [];
    for await (const row of makeClient().games.titles()) rows.push(row);
    expect(rows).toHaveLength(300);
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
    const sent = titleRequests();
    expect(sent[0]).toEqual({ limit: "200", paginate: "cursor" });
    expect(sent[1]).toMatchObject({ limit: "200", paginate: "cursor", cursor: expect.any(String) });
    expect(sent).toHaveLength(3);
  });

  it("walks in page mode when page mode is asked for, and both modes give the same rows", async () => {
    const client = makeClient();
    const byPage = await client.games.slugs({ paginate: "page", limit: 40 }).toArray({ maxItems: 1000 });
    const pages = gmi.state.requests.filter((r) => r.route === "games.slugs").map((r) => query(r.url).page);
    expect(pages).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const byCursor = await client.games.slugs({ limit: 40 }).toArray({ maxItems: 1000 });
    expect(byCursor).toEqual(byPage);
  });

  it("honours the plan's silent page cap (per_page), in both modes", async () => {
    gmi.scenarios.plan("free");
    const client = makeClient();
    const first = await client.consoles.list({ limit: 100 });
    expect(first.meta.pagination.per_page).toBe(25);
    const page = await client.games.titles({ limit: 100 });
    expect(page.meta.pagination).toMatchObject({ per_page: 25, last_page: 12 });
    expect(page.data).toHaveLength(25);
    let pages = 0;
    for await (const p of client.games.titles({ limit: 100 }).pages()) {
      expect(p.data.length).toBeLessThanOrEqual(25);
      pages++;
    }
    expect(pages).toBe(12);
    const rows = await client.games.titles({ paginate: "page", limit: 100 }).toArray({ maxItems: 500 });
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
  });

  it("a Page is iterable from itself onwards", async () => {
    const page = await makeClient().games.titles({ page: 11 });
    const rows = [];
    for await (const row of page) rows.push(row);
    expect(rows).toHaveLength(50);
  });
});

describe("bounds", () => {
  it("toArray needs maxItems and stops without fetching more", async () => {
    const call = makeClient().games.titles();
    // @ts-expect-error maxItems is required
    await expect(call.toArray({})).rejects.toThrow(TypeError);
    const rows = await makeClient().games.titles().toArray({ maxItems: 30 });
    expect(rows).toHaveLength(30);
    expect(titleRequests()).toEqual([{ limit: "30", paginate: "cursor" }]);
  });

  it("next() called without waiting hands out rows in call order, each page fetched once", async () => {
    const iterator = makeClient().games.titles({ limit: 10 })[Symbol.asyncIterator]();
    const expected = (await makeClient().games.titles({ limit: 10 }).toArray({ maxItems: 25 })).map(
      (r) => r.id,
    );
    const before = titleRequests().length;
    const results = await Promise.all(Array.from({ length: 25 }, () => iterator.next()));
    expect(results.map((r) => r.value?.id)).toEqual(expected);
    expect(titleRequests().length - before).toBe(3);
    await iterator.return?.();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("maxPages", async () => {
    const rows = await makeClient().games.titles({ limit: 10 }).toArray({ maxItems: 1000, maxPages: 3 });
    expect(rows).toHaveLength(30);
    const pages = [];
    for await (const p of makeClient().games.titles({ limit: 10 }, { maxPages: 2 }).pages()) pages.push(p);
    expect(pages).toHaveLength(2);
  });
});

describe("resume", () => {
  it("a long walk restarts where it stopped (at most one page repeated)", async () => {
    const client = makeClient();
    const call = client.games.titles({ limit: 50 });
    const seen: number[] = [];
    for await (const row of call) {
      seen.push(row.id);
      if (seen.length === 120) break;
    }
    const token = call.resumeToken;
    expect(token).toEqual(expect.any(String));
    const rest: number[] = [];
    for await (const row of client.games.titles({ limit: 50 }, { resumeToken: token as string }))
      rest.push(row.id);
    // Stopped inside the third page: the restart repeats that page, never skips a row.
    expect(rest).toHaveLength(200);
    expect(new Set([...seen, ...rest]).size).toBe(300);
    expect(call.resumeToken).toBe(token);
  });

  it("page by page: a page's resumeToken continues after it", async () => {
    const client = makeClient();
    let token: string | null = null;
    for await (const page of client.games.titles({ paginate: "page", limit: 100 }).pages({ maxPages: 1 })) {
      token = page.resumeToken;
    }
    const rest = await client.games
      .titles({}, { resumeToken: token ?? undefined })
      .toArray({ maxItems: 1000 });
    expect(rest).toHaveLength(200);
    const done = client.games.titles({ limit: 200 });
    for await (const _ of done) {
      // drain
    }
    expect(done.resumeToken).toBeNull();
  });

  it("refuses a token of another list", async () => {
    const call = makeClient().games.titles();
    const token = call.resumeToken;
    await expect(
      makeClient()
        .games.slugs({}, { resumeToken: token ?? undefined })
        .toArray({ maxItems: 1 }),
    ).rejects.toThrow(/belongs to games.titles/);
  });
});

describe("a walk stays in its first page's snapshot (issue 26)", () => {
  // One ranked list on two dates. The first request is answered from OLD; any later one without a
  // date reads NEW, ranked differently, as a server does once a newer date is rolled up mid-walk.
  // `cap` is the plan's page cap by request number (a plan can change mid-walk too).
  const OLD = { date: "2026-11-19", ids: [1, 2, 3, 4, 5] };
  const NEW = { date: "2026-11-20", ids: [6, 1, 7, 2, 3, 8] };
  const rolledUpMidWalk = (cap: (request: number) => number = () => 200) => {
    const sent: Array<Record<string, string>> = [];
    const fetch = async (url: string) => {
      const asked = query(url);
      sent.push(asked);
      const snapshot = sent.length === 1 || asked.date === OLD.date ? OLD : NEW;
      const perPage = Math.min(Number(asked.limit ?? 25), cap(sent.length));
      const page = Number(asked.page ?? 1);
      const ids = snapshot.ids.slice((page - 1) * perPage, page * perPage);
      return Response.json({
        data: ids.map((id, i) => ({ rank: (page - 1) * perPage + i + 1, game: { id } })),
        meta: {
          period: "7d",
          sort: "liquidity",
          period_date: snapshot.date,
          pagination: {
            mode: "page",
            page,
            per_page: perPage,
            total: snapshot.ids.length,
            last_page: Math.max(1, Math.ceil(snapshot.ids.length / perPage)),
          },
        },
        links: { next: null, prev: null },
      });
    };
    return { sent, client: new GmiClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch }) };
  };
  const ids = (rows: Array<{ game: { id: number } }>) => rows.map((row) => row.game.id);

  it("for await and toArray pin the first page's date on every later page", async () => {
    const { sent, client } = rolledUpMidWalk();
    const rows = [];
    for await (const row of client.intelligence.list({ paginate: "page", limit: 2 })) rows.push(row);
    expect(ids(rows)).toEqual(OLD.ids);
    expect(sent.map((q) => q.date)).toEqual([undefined, OLD.date, OLD.date]);
    const again = rolledUpMidWalk();
    const all = await again.client.intelligence.list({ page: 1, limit: 2 }).toArray({ maxItems: 100 });
    expect(ids(all)).toEqual(OLD.ids);
  });

  it("nextPage() and pages() from an awaited first page", async () => {
    const { client } = rolledUpMidWalk();
    const first = await client.intelligence.list({ limit: 2 });
    expect(ids((await first.nextPage())?.data ?? [])).toEqual([3, 4]);
    const walked = [];
    for await (const page of first.pages()) walked.push(...page.data);
    expect(ids(walked)).toEqual(OLD.ids);
  });

  it("a resume token, even the first page's, resumes in the same snapshot", async () => {
    const { client } = rolledUpMidWalk();
    const call = client.intelligence.list({ paginate: "page", limit: 2 });
    for await (const _ of call) break;
    const rest = await client.intelligence
      .list({}, { resumeToken: call.resumeToken ?? "" })
      .toArray({ maxItems: 100 });
    expect(ids(rest)).toEqual(OLD.ids);
  });

  it("asks for the page size served, so a plan changed mid-walk does not shift page numbers", async () => {
    // The first page is served 2 rows of the 100 asked; the plan then allows 3.
    const { sent, client } = rolledUpMidWalk((request) => (request === 1 ? 2 : 3));
    const rows = await client.intelligence.list({ paginate: "page" }).toArray({ maxItems: 100 });
    expect(ids(rows)).toEqual(OLD.ids);
    expect(sent.map((q) => q.limit)).toEqual(["100", "2", "2"]);
  });
});

describe("failures during a walk", () => {
  it("a failed page is retried without restarting the walk", async () => {
    const client = makeClient();
    const ids: number[] = [];
    for await (const row of client.games.titles({ limit: 100 })) {
      if (ids.length === 0) gmi.scenarios.serverErrors({ times: 2, routes: ["games.titles"] });
      ids.push(row.id);
    }
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const sent = titleRequests();
    expect(sent).toHaveLength(5); // page 1, page 2 three times, page 3
    expect(sent[1]).toEqual(sent[3]);
  });

  const scripted = (bodies: object[]) => {
    let i = 0;
    return new GmiClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      fetch: async () => Response.json(bodies[Math.min(i++, bodies.length - 1)]),
    });
  };
  const cursorPage = (data: object[], next: string | null) => ({
    data,
    meta: { pagination: { mode: "cursor", per_page: 2, total: 10, next_cursor: next } },
    links: { next: null, prev: null },
  });

  it("stops on a repeated cursor instead of looping", async () => {
    const client = scripted([
      cursorPage([{ id: 1 }], "a"),
      cursorPage([{ id: 2 }], "b"),
      cursorPage([{ id: 3 }], "a"),
    ]);
    await expect(client.consoles.list().toArray({ maxItems: 100 })).rejects.toThrow(UnexpectedResponseError);
  });

  it("stops on an empty page that claims a next one", async () => {
    const client = scripted([cursorPage([{ id: 1 }], "a"), cursorPage([], "b")]);
    await expect(client.consoles.list().toArray({ maxItems: 100 })).rejects.toThrow(/empty page/);
  });
});
