/**
 * `pnpm bench:soak [--seconds 60] [--connections 50]`: the real server (`src/main.ts`, a process
 * of its own, production settings) under mixed valid and invalid traffic over many distinct URLs,
 * API keys and Idempotency-Keys, its RSS sampled every second from /proc. Prints RSS over time and
 * whether it stayed flat (within ±20% of the first sample after warm-up: `--warmup` seconds, by
 * default half the run, while the answer caches fill and V8 sizes its heap).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL; the bench creates and drops its own
 * database), BENCH_REDIS_URL (optional: the server counts rate windows in Redis).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { PlanSlug } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import { createOrganization, ensurePlans } from "../src/data/accounts.js";
import { issueApiKey } from "../src/data/keys.js";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { prng } from "../test/fuzz/hostile.js";
import { adminUrl, createBenchDatabase } from "./admin.js";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    connections: { type: "string", default: "50" },
    keys: { type: "string", default: "200" },
    warmup: { type: "string" },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const keyCount = Number(args.keys);
const warmup = Number(args.warmup ?? seconds / 2);

const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
};

/** A request: mostly what clients send (varied pages, ids, filters), a third hostile or wrong. */
const requestMaker = (keys: string[], seed: number) => {
  const rng = prng(seed);
  const auth = () => ({ authorization: `Bearer ${rng.pick(keys)}` });
  const page = () => `limit=${1 + rng.int(100)}&page=${1 + rng.int(400)}`;
  const valid = (): [string, RequestInit] => {
    const kind = rng.int(9);
    if (kind === 0) return [`/api/v1/games/titles?${page()}`, { headers: auth() }];
    if (kind === 1) return [`/api/v1/games/game/${1001 + rng.int(3000)}`, { headers: auth() }];
    if (kind === 2) return [`/api/v1/games/console/${1 + rng.int(40)}?${page()}`, { headers: auth() }];
    if (kind === 3) {
      const sort = rng.pick(["liquidity", "demand", "value"]);
      return [
        `/api/v1/intelligence?sort=${sort}&period=${rng.pick(["day", "7d", "30d"])}&${page()}`,
        { headers: auth() },
      ];
    }
    if (kind === 4) return [`/api/v1/intelligence/${1001 + rng.int(3000)}?period=30d`, { headers: auth() }];
    if (kind === 5)
      return [
        `/api/v1/demand-intent/searches?sort=${rng.pick(["volume", "momentum", "unmet"])}&${page()}`,
        { headers: auth() },
      ];
    if (kind === 6) return [`/api/v1/games/slug/game-${rng.int(100_000)}`, { headers: auth() }];
    if (kind === 7) return [`/api/v1/me`, { headers: auth() }];
    const requests = Array.from({ length: 1 + rng.int(50) }, () => ({ game_id: 1001 + rng.int(3000) }));
    return [
      "/api/v1/intelligence/batch",
      {
        method: "POST",
        headers: {
          ...auth(),
          "content-type": "application/json",
          "idempotency-key": randomBytes(12).toString("hex"),
        },
        body: JSON.stringify({ requests }),
      },
    ];
  };
  const invalid = (): [string, RequestInit] => {
    const kind = rng.int(6);
    if (kind === 0)
      return [
        `/api/v1/games/titles?limit=${rng.pick(["0", "x", "-5"])}&n=${rng.int(1e9)}`,
        { headers: auth() },
      ];
    if (kind === 1)
      return [`/api/v1/intelligence?date=${2000 + rng.int(900)}-01-0${1 + rng.int(8)}`, { headers: auth() }];
    if (kind === 2) return [`/api/v1/nope/${rng.int(1e9)}`, {}];
    if (kind === 3)
      return [
        `/api/v1/games/titles?r=${rng.int(1e9)}`,
        { headers: { authorization: `Bearer gmi_live_${randomBytes(32).toString("base64url")}` } },
      ];
    if (kind === 4) return [`/api/v1/games/slug/${"x".repeat(1 + rng.int(300))}%00`, { headers: auth() }];
    return [
      "/api/v1/signals/batch",
      {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body: `{"requests":[${rng.int(1e6)}`,
      },
    ];
  };
  return () => (rng.chance(0.67) ? valid() : invalid());
};

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const scratch = await createBenchDatabase("gmi_soak");
  let server: ReturnType<typeof spawn> | null = null;
  const metricsToken = randomBytes(16).toString("hex");
  try {
    await migrate(scratch.url);
    const db = await openDatabase({ databaseUrl: scratch.url, dataDir: "" });
    await ensurePlans(db.pool);
    await seedDemo(db, DEFAULT_SCORING, { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 1 });
    await db.pool.query("ANALYZE");
    await db.pool.query(
      `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
         max_page_size, overage) VALUES ('soak', 'Soak', 1000000000, 1000000000, NULL, 250, 100, false)`,
    );
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) {
      const org =
        i % 4 === 0
          ? await createOrganization(db.pool, { name: `soak ${i}`, plan: "soak" as PlanSlug })
          : null;
      const orgId =
        org?.id ??
        (await db.pool.query<{ id: number }>("SELECT max(id) AS id FROM organizations")).rows[0]?.id ??
        0;
      const issued = await issueApiKey(db.pool, {
        organizationId: orgId,
        clientId: null,
        name: "soak",
        scopes: [...SCOPES],
        expiresAt: null,
      });
      keys.push(issued.key);
    }
    await db.close();

    server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: scratch.url,
        ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
        PORT: "0",
        HOST: "127.0.0.1",
        CURSOR_SECRET: randomBytes(32).toString("hex"),
        METRICS_TOKEN: metricsToken,
        ROLLUP_SCHEDULE: "off",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const child = server;
    const base = await new Promise<string>((resolve, reject) => {
      let out = "";
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1]) {
          // The request log (one line per request) is read and dropped, as a log shipper would.
          child.stdout?.off("data", onData);
          child.stdout?.resume();
          resolve(match[1]);
        }
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`server exited (${code}): ${out}`)));
    });
    const pid = child.pid ?? 0;

    const next = requestMaker(keys, 1);
    const deadline = Date.now() + seconds * 1_000;
    const statuses = new Map<string, number>();
    let done = 0;
    const worker = async () => {
      while (Date.now() < deadline) {
        const [path, init] = next();
        try {
          const response = await fetch(`${base}${path}`, init);
          await response.arrayBuffer();
          const group = `${Math.floor(response.status / 100)}xx`;
          statuses.set(group, (statuses.get(group) ?? 0) + 1);
        } catch {
          statuses.set("error", (statuses.get("error") ?? 0) + 1);
        }
        done += 1;
      }
    };
    // The V8 heap in use (from /metrics) beside RSS: a heap that levels off while RSS climbs is
    // the allocator, a heap that keeps climbing is something kept.
    const heapMb = async (): Promise<number> => {
      const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
        .then((r) => r.text())
        .catch(() => "");
      return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? Number.NaN) / 1_048_576;
    };
    type Sample = { t: number; rss: number; heap: number; requests: number };
    const samples: Sample[] = [];
    const started = Date.now();
    const sample = async () => {
      const t = Math.round((Date.now() - started) / 1000);
      samples.push({ t, rss: rssMb(pid), heap: await heapMb(), requests: done });
    };
    await sample();
    const sampler = setInterval(() => void sample(), 1_000);
    await Promise.all(Array.from({ length: connections }, worker));
    clearInterval(sampler);
    await sample();

    console.log(
      `\nsoak: ${seconds}s, ${connections} connections, ${keyCount} API keys, limiter ${process.env.BENCH_REDIS_URL ? "redis" : "memory"}`,
    );
    console.log(
      `requests: ${done} (${Math.round(done / seconds)}/s); ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    console.log("   t(s)   RSS MB  heap MB   requests");
    const every = Math.max(1, Math.round(samples.length / 20));
    for (const [i, s] of samples.entries()) {
      if (i % every === 0 || i === samples.length - 1) {
        console.log(
          `${String(s.t).padStart(7)} ${s.rss.toFixed(1).padStart(8)} ${s.heap.toFixed(1).padStart(8)} ${String(s.requests).padStart(10)}`,
        );
      }
    }
    const warm = samples.filter((s) => s.t >= warmup);
    const base0 = warm[0]?.rss ?? Number.NaN;
    const max = Math.max(...warm.map((s) => s.rss));
    const min = Math.min(...warm.map((s) => s.rss));
    const last = warm.at(-1)?.rss ?? Number.NaN;
    const drift = (value: number) => `${(((value - base0) / base0) * 100).toFixed(1)}%`;
    console.log(
      `\nafter warm-up (t >= ${warmup}s): start ${base0.toFixed(1)} MB, min ${min.toFixed(1)} (${drift(min)}), ` +
        `max ${max.toFixed(1)} (${drift(max)}), end ${last.toFixed(1)} (${drift(last)})`,
    );
    const heaps = warm.map((s) => s.heap);
    console.log(
      `heap after warm-up: start ${heaps[0]?.toFixed(1)} MB, max ${Math.max(...heaps).toFixed(1)}, end ${heaps.at(-1)?.toFixed(1)}`,
    );
    const flat = max <= base0 * 1.2 && min >= base0 * 0.8;
    console.log(flat ? "RSS flat within ±20% after warm-up" : "RSS NOT flat within ±20% after warm-up");
  } finally {
    server?.kill("SIGKILL");
    await scratch.drop();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
