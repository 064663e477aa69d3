/**
 * This repository only (it starts the repository's own server): refreshes fixtures/world.json and
 * fixtures/server-answers.json together. A small marketplace (three consoles, 24 games, 14 days of
 * events, written below as the NDJSON `gmi import` reads) is imported into a real server on a
 * PostgreSQL database of its own, rolled up, exported with `gmi export-mock-world`, and recorded
 * with scripts/record-server.ts. Run from the repository's root:
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node examples/mock-testing/scripts/refresh-in-repo.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRealServer } from "../../../packages/sdk/test/e2e/real-server.ts";

const END = "2026-11-20";
const DAYS = 14;
const here = fileURLToPath(new URL("..", import.meta.url));

/** mulberry32: the same marketplace on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

const marketplace = (): string[] => {
  const next = random(29);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const consoles = [
    { type: "console", id: 1, name: "Super Nintendo", slug: "snes" },
    { type: "console", id: 2, name: "Nintendo 64", slug: "n64" },
    { type: "console", id: 3, name: "PlayStation", slug: "ps1" },
  ];
  const names = ["Chrono", "Star", "Dragon", "Metal", "Secret", "Sonic", "Mega", "Final"];
  const kinds = ["Quest", "Saga", "Racer", "Knight", "Legend", "Force"];
  const games = Array.from({ length: 24 }, (_, i) => {
    const name = `${names[i % names.length]} ${kinds[Math.floor(i / names.length) % kinds.length]}`;
    const loose = 10 + Math.round(next() * 200);
    return {
      type: "game",
      id: 101 + i,
      console_id: 1 + (i % 3),
      display_game_name: name,
      marketplace_game_name: name.toLowerCase().replace(/ /g, "-"),
      prices: { loose: `${loose}.00`, complete: i % 4 === 3 ? null : `${loose * 2}.50`, new: null },
    };
  });
  const events: object[] = [];
  for (let day = 0; day < DAYS; day++) {
    const date = new Date(Date.parse(`${END}T00:00:00Z`) - (DAYS - 1 - day) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    for (const game of games) {
      // Demand skewed towards the first games, so the leaderboard has a clear order.
      const redirects = Math.floor(next() * (30 - game.id + 101));
      for (let n = 0; n < redirects; n++) {
        const at = `${date}T${String(Math.floor(next() * 24)).padStart(2, "0")}:00:00Z`;
        const user = `u${Math.floor(next() * 400)}`;
        events.push({
          type: "redirect",
          game_id: game.id,
          user_id: user,
          occurred_at: at,
          condition: pick(["loose", "cib", "new"]),
        });
        if (next() < 0.3)
          events.push({
            type: "search",
            query: `${game.display_game_name} ${pick(["snes", "cib", "price", ""])}`.trim(),
            user_id: user,
            occurred_at: at,
            source: pick(["pricing", "site"]),
            device: pick(["mobile", "desktop"]),
            result_count: next() < 0.2 ? 0 : 3,
            condition: null,
            game_id: game.id,
            console_id: null,
          });
        if (next() < 0.1)
          events.push({
            type: "watch",
            game_id: game.id,
            user_id: user,
            created_at: at,
            removed_at: null,
            condition: "loose",
          });
      }
    }
  }
  return [...consoles, ...games, ...events].map((line) => JSON.stringify(line));
};

const admin = process.env.TEST_DATABASE_URL;
if (!admin)
  throw new Error("TEST_DATABASE_URL: a PostgreSQL admin URL the server's database is created under");
const dir = await mkdtemp(path.join(tmpdir(), "gmi-mock-testing-"));
const ndjson = path.join(dir, "marketplace.ndjson");
await writeFile(ndjson, `${marketplace().join("\n")}\n`);
const server = await startRealServer({ postgresAdminUrl: admin, importFirst: ndjson });
try {
  await server.gmi(["rollup", "--days", String(DAYS)]);
  const world = path.join(here, "fixtures/world.json");
  await server.gmi(["export-mock-world", "--date", END, "--days", "1", "--out", world]);
  execFileSync(process.execPath, ["scripts/record-server.ts"], {
    cwd: here,
    env: { ...process.env, GMI_BASE_URL: server.baseUrl, GMI_API_KEY: server.keys.pro, GMI_DATE: END },
    stdio: "inherit",
  });
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
