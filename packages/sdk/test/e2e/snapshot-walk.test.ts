import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GmiClient } from "../../src/index.js";
import { validateResponses } from "../../src/validate/index.js";
import { type RealServer, startRealServer } from "./real-server.js";

/**
 * A page-mode walk stays in the snapshot of its first page (issue 26, item 3) on the real server:
 * a server of its own (it rolls up a date mid-walk, which the shared one must not see), on a small
 * marketplace where BEFORE and D rank differently (102 has demand only on D). BEFORE is rolled up
 * first, D after the walk's first page.
 */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const D = day(-1);
const BEFORE = day(-2);

const redirects = (gameId: number, date: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    type: "redirect",
    game_id: gameId,
    user_id: `u${gameId}-${date}-${i}`,
    occurred_at: `${date}T12:00:00Z`,
  }));

const marketplace = [
  { type: "console", id: 1, name: "Super Nintendo", slug: "snes" },
  ...[101, 102, 103, 104, 105].map((id) => ({
    type: "game",
    id,
    console_id: 1,
    display_game_name: `Game ${id}`,
    marketplace_game_name: `game-${id}`,
    prices: { loose: `${id - 90}.00`, complete: `${2 * (id - 90)}.00`, new: null },
  })),
  ...redirects(101, BEFORE, 3),
  ...redirects(103, BEFORE, 2),
  ...redirects(104, BEFORE, 1),
  ...redirects(105, BEFORE, 1),
  ...redirects(102, D, 5),
  ...redirects(104, D, 3),
];

let server: RealServer;
let dir: string;
let client: GmiClient;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gmi-sdk-snapshot-walk-"));
  const file = path.join(dir, "marketplace.ndjson");
  await writeFile(file, `${marketplace.map((line) => JSON.stringify(line)).join("\n")}\n`);
  const adminUrl = process.env.TEST_DATABASE_URL;
  server = await startRealServer({ importFirst: file, ...(adminUrl ? { postgresAdminUrl: adminUrl } : {}) });
  await server.gmi(["rollup", "--date", BEFORE]);
  client = new GmiClient({ apiKey: server.apiKey, baseUrl: server.baseUrl, validate: validateResponses() });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Rolls up D and waits until the server serves it by default (the latest snapshot may lag a second). */
const rollUpNewerDate = async () => {
  await server.gmi(["rollup", "--date", D]);
  for (let tries = 0; (await client.intelligence.list({ limit: 1 })).meta.period_date !== D; tries++) {
    if (tries === 100) throw new Error(`${D} is still not the default date after its rollup`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe("a page-mode walk against the real server", () => {
  it("ends with every row of its first page's snapshot once, though a newer date is rolled up after that page", async () => {
    const ids = (rows: Array<{ game: { id: number } }>) => rows.map((row) => row.game.id);
    const walked: number[] = [];
    for await (const row of client.intelligence.list({ paginate: "page", limit: 2 })) {
      walked.push(row.game.id);
      if (walked.length === 1) await rollUpNewerDate();
    }

    const first = await client.intelligence.list({ date: BEFORE }).toArray({ maxItems: 100 });
    const latest = await client.intelligence.list().toArray({ maxItems: 100 });
    // The newer snapshot ranks other rows: a walk that moved to it would repeat or lose some.
    expect(ids(latest)).not.toEqual(ids(first));
    expect(walked).toEqual(ids(first));
    expect(new Set(walked).size).toBe(walked.length);
  });
});
