/**
 * `pnpm bench:sdk`: reads 10,000 rows through the SDK's iterator and through a hand-written fetch
 * loop against the same server, alternating, and compares the medians (goal: within 10%).
 *
 * Against a running server: GMI_BENCH_BASE_URL + GMI_BENCH_API_KEY (or GMI_E2E_BASE_URL +
 * GMI_E2E_API_KEY). Without them it forks a tiny node:http server (its own process, as a real
 * server is) serving 10,000 rows in the contract's cursor-mode shape for `/api/v1/games/titles`.
 * `--check` exits 1 when over the goal.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { GmiClient } from "../src/index.js";

const ROWS = 10_000;
const LIMIT = 100;
const ROUNDS = Number(process.env.GMI_BENCH_ROUNDS ?? 25);

const serve = async (): Promise<void> => {
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    display_game_name: `Game ${String(i + 1).padStart(5, "0")}`,
  }));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== "/api/v1/games/titles") {
      response.writeHead(404).end();
      return;
    }
    const perPage = Math.min(Number(url.searchParams.get("limit") ?? 25), 100);
    const cursor = url.searchParams.get("cursor");
    const offset = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : 0;
    const end = offset + perPage;
    const next = end < rows.length ? Buffer.from(String(end)).toString("base64url") : null;
    const body = JSON.stringify({
      data: rows.slice(offset, end),
      meta: { pagination: { mode: "cursor", per_page: perPage, total: rows.length, next_cursor: next } },
      links: {
        next: next ? `http://localhost/api/v1/games/titles?paginate=cursor&cursor=${next}` : null,
        prev: null,
      },
    });
    response.writeHead(200, {
      "content-type": "application/json",
      "x-request-id": "00000000-0000-4000-8000-000000000000",
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "599",
      "x-ratelimit-reset": "60",
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.send?.((server.address() as AddressInfo).port);
  process.on("disconnect", () => server.close());
};

const startLocalServer = async (): Promise<{ child: ChildProcess; baseUrl: string }> => {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"]);
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  return { child, baseUrl: `http://127.0.0.1:${port}` };
};

if (process.argv.includes("--serve")) {
  await serve();
} else {
  await bench();
}

async function bench(): Promise<void> {
  const external = process.env.GMI_BENCH_BASE_URL ?? process.env.GMI_E2E_BASE_URL;
  const apiKey = process.env.GMI_BENCH_API_KEY ?? process.env.GMI_E2E_API_KEY ?? "bench-key";
  const local = external ? undefined : await startLocalServer();
  const baseUrl = external ?? (local?.baseUrl as string);

  const client = new GmiClient({ apiKey, baseUrl });

  const viaIterator = async (): Promise<number> => {
    let count = 0;
    for await (const row of client.games.titles({ limit: LIMIT })) {
      if (row.id > 0) count++;
      if (count === ROWS) break;
    }
    return count;
  };

  const byHand = async (): Promise<number> => {
    let count = 0;
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: String(LIMIT), paginate: "cursor" });
      if (cursor) query.set("cursor", cursor);
      const response = await fetch(`${baseUrl}/api/v1/games/titles?${query}`, {
        headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as {
        data: Array<{ id: number }>;
        meta: { pagination: { next_cursor: string | null } };
      };
      for (const row of body.data) {
        if (row.id > 0) count++;
        if (count === ROWS) return count;
      }
      cursor = body.meta.pagination.next_cursor;
    } while (cursor);
    return count;
  };

  const time = async (fn: () => Promise<number>) => {
    const start = performance.now();
    const rows = await fn();
    return { ms: performance.now() - start, rows };
  };
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };

  for (let i = 0; i < 3; i++) {
    await viaIterator();
    await byHand();
  }
  const hand: number[] = [];
  const iterator: number[] = [];
  let rows = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so warm caches and GC favour neither.
    const pair = round % 2 === 0 ? [byHand, viaIterator] : [viaIterator, byHand];
    for (const fn of pair) {
      const result = await time(fn);
      (fn === byHand ? hand : iterator).push(result.ms);
      rows = result.rows;
    }
  }
  local?.child.disconnect();

  const handMs = median(hand);
  const iteratorMs = median(iterator);
  // Each round runs both back to back, so the median of the per-round ratios cancels most of the
  // machine's drift (other processes, GC) that separate medians would keep.
  const overhead = (median(iterator.map((ms, i) => ms / (hand[i] as number))) - 1) * 100;
  const verdict = overhead <= 10 ? "within the 10% goal" : "OVER the 10% goal";
  console.log(`server:    ${external ? external : `local node:http (${ROWS} rows, ${LIMIT} per page)`}`);
  console.log(`rows:      ${rows} per run, ${ROUNDS} runs each, medians`);
  console.log(`hand loop: ${handMs.toFixed(1)} ms`);
  console.log(`iterator:  ${iteratorMs.toFixed(1)} ms`);
  console.log(
    `overhead:  ${overhead >= 0 ? "+" : ""}${overhead.toFixed(1)}% (median of per-round ratios; ${verdict})`,
  );
  if (process.argv.includes("--check") && overhead > 10) process.exit(1);
}
