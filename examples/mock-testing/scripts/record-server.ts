/**
 * Records a real server's answers to test/parity-requests.ts into fixtures/server-answers.json, for
 * test/parity.test.ts to replay against the mocks. Run it against the server whose database the
 * world was exported from, with the world's last date:
 *
 *   gmi export-mock-world --date 2026-11-20 --days 7 --out fixtures/world.json
 *   GMI_BASE_URL=http://127.0.0.1:3000 GMI_API_KEY=<key> GMI_DATE=2026-11-20 node scripts/record-server.ts
 */
import { writeFile } from "node:fs/promises";
import { parityRequests, type RecordedAnswer, type Recording } from "../test/parity-requests.ts";

const origin = new URL(process.env.GMI_BASE_URL ?? "http://127.0.0.1:3000").origin;
const key = process.env.GMI_API_KEY ?? "";
const date = process.env.GMI_DATE ?? "";
if (!key || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
  console.error(
    "usage: GMI_BASE_URL=<url> GMI_API_KEY=<key> GMI_DATE=YYYY-MM-DD node scripts/record-server.ts",
  );
  process.exit(2);
}

const get = async (path: string): Promise<RecordedAnswer> => {
  const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return {
    path,
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: await response.json(),
  };
};

const me = (await get("/api/v1/me")).body as { data: { plan: { slug: string } } };
const top = (await get(`/api/v1/intelligence?period=7d&limit=1&date=${date}`)).body as {
  data: Array<{ game: { id: number } }>;
};
const game = top.data[0]?.game.id;
if (game === undefined) throw new Error(`no leaderboard on ${date}: roll that date up first`);
const answers: RecordedAnswer[] = [];
for (const path of parityRequests(date, game)) answers.push(await get(path));
const recording: Recording = { origin, plan: me.data.plan.slug, date, answers };
const out = new URL("../fixtures/server-answers.json", import.meta.url);
await writeFile(out, `${JSON.stringify(recording, null, 2)}\n`);
console.log(
  `recorded ${answers.length} answers of ${origin} (plan ${recording.plan}, ${date}) to ${out.pathname}`,
);
