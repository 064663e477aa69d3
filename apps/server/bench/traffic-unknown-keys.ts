/**
 * The `unknown keys` phases of `pnpm bench:traffic` (issue 32): clients without a key, as an
 * attacker or a misconfigured fleet would send them, against the same server in production mode
 * (PostgreSQL, Redis). Each flood of well-formed but unknown `gmi_live_…` keys is measured beside
 * the flood of tokens that are not key-shaped (`Bearer nope<n>`, refused without any lookup), on
 * the same route, the same number of connections and the same client addresses: the ratio is what
 * an unknown key costs over a token the server can refuse by its shape.
 *
 *   one client      every request a fresh random key, from the bench's own address;
 *   many clients    20,000 random keys over 50,000 client addresses (X-Forwarded-For, the bench's
 *                   address a trusted proxy): each address stays under the failed-authentication
 *                   limit, so what keeps PostgreSQL out is the negative cache of unknown keys. Each
 *                   key is sent once before the clock (its one lookup): the flood is measured after
 *                   the first presentation of its keys, as a client repeating them is.
 *
 * Runs a server of its own (TRUST_PROXY=127.0.0.1), so the other phases see no proxy.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { generateApiKey } from "../src/domain/auth/api-key.js";
import { type LoadRequest, type LoadResult, processCpuMs, runLoad, statusShares } from "./children.js";
import { startServer } from "./server-child.js";

export type UnknownKeysContext = {
  /** The bench's entry (its `--load` child). */
  entry: string;
  /** A scratch folder for the request files. */
  work: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** PostgreSQL transactions of the bench's database so far. */
  transactions(): Promise<number>;
  /** Waits for PostgreSQL's statistics to be reported. */
  settle(): Promise<unknown>;
  duration: number;
  warmup: number;
  connections: number;
};

const PATH = "/api/v1/games/titles";
const REQUESTS = 50_000;
/** Keys of the many-clients flood: fewer than its requests, so each comes back (the negative cache's case). */
const REPEATED_KEYS = 20_000;

/**
 * How long the prime's lookups may take to show in pg_stat_database: a backend that goes idle
 * reports its statistics within 10 s (PostgreSQL's idle flush interval), not at once.
 */
const STATS_REPORTED_MS = 11_000;

/** 10.a.b.c for n = 0..2^24-1: an address per client. */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** `prime`: requests sent once before the warm-up (each repeated key's first presentation, its one lookup). */
type Flood = { name: string; requests: LoadRequest[]; prime?: number };

const flood = (
  name: string,
  token: (n: number) => string,
  client?: (n: number) => string,
  prime?: number,
): Flood => ({
  name,
  ...(prime ? { prime } : {}),
  requests: Array.from({ length: REQUESTS }, (_, n) => ({
    method: "GET",
    path: PATH,
    headers: {
      authorization: `Bearer ${token(n)}`,
      ...(client ? { "x-forwarded-for": client(n) } : {}),
    },
  })),
});

/** Pairs of floods: unknown keys, then the not-key-shaped tokens they are compared with. */
const pairs = (): Array<[Flood, Flood]> => {
  const fresh = Array.from({ length: REQUESTS }, () => generateApiKey().key);
  const repeated = Array.from({ length: REPEATED_KEYS }, () => generateApiKey().key);
  return [
    [
      flood("unknown keys, one client", (n) => fresh[n] ?? ""),
      flood("  not key-shaped, one client", (n) => `nope${n}`),
    ],
    [
      // Two address ranges, so one flood's failures do not count against the other's clients.
      flood(
        "unknown keys, 50k clients",
        (n) => repeated[n % REPEATED_KEYS] ?? "",
        (n) => address(n),
        REPEATED_KEYS,
      ),
      flood(
        "  not key-shaped, 50k clients",
        (n) => `nope${n}`,
        (n) => address(REQUESTS + n),
        REPEATED_KEYS,
      ),
    ],
  ];
};

export const unknownKeyPhases = async (context: UnknownKeysContext, only: RegExp | null) => {
  const chosen = pairs().filter(([keys]) => !only || only.test(keys.name));
  if (chosen.length === 0) return;
  const server = await startServer({
    databaseUrl: context.databaseUrl,
    redisUrl: context.redisUrl,
    redisPrefix: context.redisPrefix,
    env: { TRUST_PROXY: "127.0.0.1" },
  });
  try {
    const pid = server.child.pid ?? 0;
    const measure = async (phase: Flood) => {
      const file = path.join(context.work, `unknown-keys-${phase.name.trim().replace(/\W+/g, "-")}.json`);
      writeFileSync(file, JSON.stringify(phase.requests));
      const load = { url: server.url, file, connections: context.connections };
      if (phase.prime) {
        await runLoad(context.entry, { ...load, duration: 0, amount: phase.prime });
        await new Promise((resolve) => setTimeout(resolve, STATS_REPORTED_MS));
      }
      if (context.warmup > 0) await runLoad(context.entry, { ...load, duration: context.warmup });
      await context.settle();
      const before = await context.transactions();
      const cpuBefore = processCpuMs(pid);
      const result: LoadResult = await runLoad(context.entry, { ...load, duration: context.duration });
      const cpuUs = ((processCpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.total);
      await context.settle();
      const pgPerRequest = ((await context.transactions()) - before) / Math.max(1, result.total);
      return { result, cpuUs, pgPerRequest };
    };
    const row = (name: string, m: Awaited<ReturnType<typeof measure>>, ratio: string, goal: string) =>
      console.log(
        [
          name.padEnd(36),
          m.result.rps.toFixed(0).padStart(7),
          m.result.p50.toFixed(1).padStart(6),
          m.result.p99.toFixed(1).padStart(6),
          m.cpuUs.toFixed(0).padStart(7),
          m.pgPerRequest.toFixed(3).padStart(7),
          ratio.padStart(8),
          goal.padStart(22),
          ` ${statusShares(m.result)}`,
        ].join(" "),
      );
    console.log(
      `\nunknown keys: ${context.duration} s per flood, ${context.connections} connections, ${PATH}; ` +
        "ratio: the unknown keys' req/s over the not-key-shaped tokens' (same addresses)\n",
    );
    const header = [
      "flood".padEnd(36),
      "req/s".padStart(7),
      "p50".padStart(6),
      "p99".padStart(6),
      "cpu us".padStart(7),
      "pg/req".padStart(7),
      "ratio".padStart(8),
      "goal".padStart(22),
      "  statuses",
    ].join(" ");
    console.log(`${header}\n${"-".repeat(header.length)}`);
    for (const [keys, shapeless] of chosen) {
      const unknown = await measure(keys);
      const refused = await measure(shapeless);
      row(keys.name, unknown, (unknown.result.rps / refused.result.rps).toFixed(2), ">= 0.9, pg/req ~ 0");
      row(shapeless.name, refused, "", "");
    }
  } finally {
    await server.stop();
  }
};
