/**
 * `pnpm bench:sdk`: reads 10,000 rows through the SDK's iterator and through a hand-written fetch
 * loop against the same local server, alternating, and compares them (goal: within 10%).
 *
 * Servers:
 * - default: the real server of this repository, started as a new user starts it (demo keys), its
 *   catalog loaded first through `pnpm gmi import` with 10,000 titles, so every run reads 10,000
 *   rows of `/api/v1/games/titles`. On PostgreSQL when GMI_BENCH_DATABASE_URL or TEST_DATABASE_URL
 *   gives an admin URL (a database of its own, dropped after), else on the embedded database, whose
 *   queries run in the server's thread and stall its requests (much noisier figures). The demo
 *   enterprise key allows 3,000 requests a minute: the bench waits for a fresh window between rounds
 *   when the next round would not fit, off the clock.
 * - `--tiny` or GMI_BENCH_TINY=1: a tiny node:http server, forked (its own process, as a real
 *   server is), serving 10,000 rows in the contract's cursor-mode shape: next to nothing on the
 *   server side, so it isolates the client's own cost (a stricter test than the goal's).
 * - GMI_BENCH_BASE_URL + GMI_BENCH_API_KEY: a server already running.
 *
 * It measures the built SDK (`@gmi/sdk` resolves to dist/) under plain node, which is what users
 * run: a dev loader would measure its own transforms too (tsx keeps names by wrapping every closure
 * the SDK creates per page in a call). A third loop, the hand loop with the SDK's per-attempt
 * timeout, shows what the cancellable timeout costs on its own. `--check` exits 1 when over the goal.
 * GMI_BENCH_ROUNDS sets the rounds.
 */
import { type ChildProcess, fork } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GmiClient } from "@gmi/sdk";

const ROWS = 10_000;
const LIMIT = 100;
const TINY = process.argv.includes("--tiny") || process.env.GMI_BENCH_TINY === "1";
// A round is three loops of 100 pages: on the real server, ten rounds fill the minute window of
// the enterprise key (3,000 requests), and the spread between rounds there needs many of them.
const ROUNDS = Number(process.env.GMI_BENCH_ROUNDS ?? 40);
const WARMUP = TINY ? 5 : 3;
const GOAL = 10;

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

interface Target {
  label: string;
  baseUrl: string;
  apiKey: string;
  stop: () => Promise<void>;
}

const tinyServer = async (): Promise<Target> => {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve"]);
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  return {
    label: "tiny node:http server (forked)",
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: "bench-key",
    stop: async () => child.disconnect(),
  };
};

/** One console and ROWS enabled games, in the importer's NDJSON format (docs/data-format.md). */
const benchCatalog = async (): Promise<string> => {
  const file = path.join(tmpdir(), `gmi-bench-catalog-${process.pid}.ndjson`);
  const lines = [JSON.stringify({ type: "console", id: 1, name: "Bench Console", slug: "bench" })];
  for (let id = 1; id <= ROWS; id++) {
    lines.push(
      JSON.stringify({
        type: "game",
        id,
        console_id: 1,
        display_game_name: `Game ${String(id).padStart(5, "0")}`,
        marketplace_game_name: `game-${id}`,
        enabled: true,
        prices: { loose: "10.00", complete: "20.00", new: null },
      }),
    );
  }
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
};

const realServer = async (): Promise<Target> => {
  // A .ts path, for Node's type stripping; typed through the .js path TypeScript resolves.
  const helper = new URL("../test/e2e/real-server.ts", import.meta.url).href;
  const { startRealServer } = (await import(helper)) as typeof import("../test/e2e/real-server.js");
  console.log(`starting the real server (${ROWS.toLocaleString("en")} titles imported first)...`);
  const postgresAdminUrl = process.env.GMI_BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const catalog = await benchCatalog();
  const server = await startRealServer({ importFirst: catalog, postgresAdminUrl }).finally(() =>
    rm(catalog, { force: true }),
  );
  const database = postgresAdminUrl ? "PostgreSQL, a database of its own" : "embedded PostgreSQL";
  return { label: `real server of this repository (${server.baseUrl}, ${database})`, ...server };
};

const target = async (): Promise<Target> => {
  const baseUrl = process.env.GMI_BENCH_BASE_URL ?? process.env.GMI_E2E_BASE_URL;
  const apiKey = process.env.GMI_BENCH_API_KEY ?? process.env.GMI_E2E_API_KEY;
  if (baseUrl && apiKey) return { label: baseUrl, baseUrl, apiKey, stop: async () => {} };
  return TINY ? tinyServer() : realServer();
};

/** The X-RateLimit-* state of a response (seconds to reset made absolute). */
const observedWindow = (headers: Headers) => {
  const remaining = Number(headers.get("x-ratelimit-remaining"));
  const reset = Number(headers.get("x-ratelimit-reset"));
  return Number.isFinite(remaining) && Number.isFinite(reset)
    ? { remaining, resetAt: Date.now() + reset * 1000 }
    : undefined;
};

const median = (values: number[]) => quantile(values, 0.5);
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
};
const percent = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;

interface Loop {
  name: string;
  run: () => Promise<number>;
  ms: number[];
}

async function bench(): Promise<void> {
  const server = await target();
  const { baseUrl, apiKey } = server;
  const client = new GmiClient({ apiKey, baseUrl });

  const viaIterator = async (): Promise<number> => {
    let count = 0;
    for await (const row of client.games.titles({ limit: LIMIT })) {
      if (row.id > 0) count++;
      if (count === ROWS) break;
    }
    return count;
  };

  // What a careful user writes without the SDK: the same page size, cursor mode, headers and JSON
  // parse, the status checked, one keep-alive fetch after another. `timeout` adds what the SDK has
  // per attempt (an AbortController whose signal fetch gets, and a timer), to show what that costs.
  let requests = 0;
  // The rate-limit window as the last response of the last loop saw it (see roomForRound).
  let rateWindow: { remaining: number; resetAt: number } | undefined;
  const byHand = (timeout: boolean) => async (): Promise<number> => {
    let count = 0;
    let cursor: string | null = null;
    requests = 0;
    do {
      const query = new URLSearchParams({ limit: String(LIMIT), paginate: "cursor" });
      if (cursor) query.set("cursor", cursor);
      const controller = timeout ? new AbortController() : undefined;
      const timer = controller && setTimeout(() => controller.abort(), 30_000);
      const response = await fetch(`${baseUrl}/api/v1/games/titles?${query}`, {
        headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
        signal: controller?.signal,
      });
      requests++;
      rateWindow = observedWindow(response.headers);
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as {
        data: Array<{ id: number }>;
        meta: { pagination: { next_cursor: string | null } };
      };
      clearTimeout(timer);
      for (const row of body.data) {
        if (row.id > 0) count++;
        if (count === ROWS) return count;
      }
      cursor = body.meta.pagination.next_cursor;
    } while (cursor);
    return count;
  };

  const hand: Loop = { name: "hand loop", run: byHand(false), ms: [] };
  const handTimeout: Loop = { name: "+ timeout", run: byHand(true), ms: [] };
  const iterator: Loop = { name: "iterator", run: viaIterator, ms: [] };
  const loops = [hand, handTimeout, iterator];

  // With --expose-gc, each run starts from a collected heap: one loop's garbage is not collected on
  // the next one's clock (alternation alone would spread the iterator's allocations over all three).
  const gc = (globalThis as { gc?: () => void }).gc;
  let rows: number | undefined;
  const time = async (loop: Loop) => {
    gc?.();
    const start = performance.now();
    const read = await loop.run();
    const ms = performance.now() - start;
    if (loop === iterator) rateWindow = client.rateLimit;
    if (rows !== undefined && read !== rows) throw new Error(`${loop.name} read ${read} rows, not ${rows}`);
    rows = read;
    return ms;
  };

  // A round must fit in the plan's minute window (a 429 would time the SDK's wait and break the
  // hand loop): when it would not, wait for the next window, off the clock.
  const perRound = loops.length * Math.ceil(ROWS / LIMIT);
  let waits = 0;
  const roomForRound = async () => {
    const resetAt = rateWindow && rateWindow.remaining <= perRound ? rateWindow.resetAt : undefined;
    if (resetAt === undefined) return;
    waits++;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, resetAt - Date.now()) + 500));
    rateWindow = undefined;
  };

  try {
    for (let i = 0; i < WARMUP; i++) {
      await roomForRound();
      for (const loop of loops) await time(loop);
    }
    for (let round = 0; round < ROUNDS; round++) {
      await roomForRound();
      // Each round runs every loop once, starting from a different one, so warm caches and the
      // machine's drift favour none.
      for (let i = 0; i < loops.length; i++) {
        const loop = loops[(round + i) % loops.length] as Loop;
        loop.ms.push(await time(loop));
      }
    }
  } finally {
    await server.stop();
  }

  // Within a round the loops run back to back, so the median of the per-round ratios cancels most
  // of the machine's drift (other processes, GC) that separate medians would keep. Noise only ever
  // adds time, so the best runs approach what each loop costs on a quiet machine.
  const ratio = (a: Loop, b: Loop) => median(a.ms.map((ms, i) => ms / (b.ms[i] as number)));
  const spread = (a: Loop, b: Loop) => {
    const ratios = a.ms.map((ms, i) => ms / (b.ms[i] as number));
    return `middle half ${percent(quantile(ratios, 0.25))} .. ${percent(quantile(ratios, 0.75))}`;
  };
  const best = (loop: Loop) => Math.min(...loop.ms);
  const overhead = (ratio(iterator, hand) - 1) * 100;
  const [load = 0] = loadavg();
  const cores = availableParallelism();
  const line = (loop: Loop, extra = "") =>
    console.log(
      `${`${loop.name}:`.padEnd(11)}${median(loop.ms).toFixed(1)} ms median, ${best(loop).toFixed(1)} ms best${extra}`,
    );
  console.log(`server:    ${server.label}`);
  console.log(`rows:      ${rows} per run, ${LIMIT} per page (${requests} requests), cursor mode`);
  console.log(
    `runs:      ${ROUNDS} rounds of each loop, order rotated, after ${WARMUP} warm-up rounds` +
      (waits ? `; ${waits} wait(s) for a fresh rate-limit window, off the clock` : ""),
  );
  console.log(
    `sdk:       built dist/, node ${process.version}${gc ? ", heap collected before each run" : ""}`,
  );
  console.log(
    `machine:   load ${load.toFixed(1)} on ${cores} cores${load > cores ? " (busy: figures inflated, noisy)" : ""}`,
  );
  line(hand);
  line(handTimeout, ` (${percent(ratio(handTimeout, hand))}: the SDK's per-attempt timeout alone)`);
  line(iterator, ` (best vs best ${percent(best(iterator) / best(hand))})`);
  console.log(
    `overhead:  ${percent(ratio(iterator, hand))} over the hand loop (median of per-round ratios; ${spread(iterator, hand)}); ` +
      `${percent(ratio(iterator, handTimeout))} over the loop with a timeout`,
  );
  console.log(`goal:      within ${GOAL}% of the hand loop: ${overhead <= GOAL ? "met" : "NOT met"}`);
  if (process.argv.includes("--check") && overhead > GOAL) process.exitCode = 1;
}

if (process.argv.includes("--serve")) {
  await serve();
} else {
  await bench();
}
