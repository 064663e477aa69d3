import { createHash } from "node:crypto";
import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { ScoringConfig } from "./domain/analytics/weights.js";
import {
  DEFAULT_DEMAND_WEIGHTS,
  DEFAULT_LIQUIDITY_WEIGHT,
  DEFAULT_UNMET_MIN_SEARCHES,
  parseDemandWeights,
} from "./domain/analytics/weights.js";
import { parseCron } from "./domain/schedule/cron.js";

/** The repository root: relative paths in the environment (DATA_DIR) are resolved against it, not
 * against the working directory, because `pnpm --filter` moves the working directory. */
export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.includes(new URL(value).protocol), {
      message: `must be a ${protocols.join(" or ")} URL`,
    });

/** The domain's own parser (domain/analytics/weights.ts), so the rule lives in one place. */
const weights = z.string().transform((value, ctx) => {
  const parsed = parseDemandWeights(value);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
  return z.NEVER;
});

/** "off" or a five-field cron expression (minute hour day month weekday). */
const schedule = z
  .string()
  .trim()
  .refine(
    (value) => {
      if (value === "off") return true;
      try {
        parseCron(value);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be "off" or a five-field cron expression (UTC) such as "15 0 * * *"' },
  );

/**
 * A secret that reads like `${METRICS_TOKEN:-}` or `$CURSOR_SECRET` is a variable some tool did not
 * expand (podman-compose 1.0.3 passes compose.yaml's `${...}` literally): accepting it would make the
 * literal text the secret, so the server refuses to start instead.
 */
const UNEXPANDED_VARIABLE = /\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*/;
const secret = (minLength: number) =>
  z
    .string()
    .min(minLength, `must be at least ${minLength} characters`)
    .refine((value) => !UNEXPANDED_VARIABLE.test(value), {
      message: "looks like an unexpanded variable (such as $NAME or $\u007bNAME}): pass the value itself",
    });

/** A comma list of PostgreSQL URLs (DATABASE_READ_URL: the standbys reads may go to). */
const postgresUrls = z.string().transform((value, ctx): string[] => {
  const list = value
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  for (const item of list) {
    const parsed = url(["postgres:", "postgresql:"]).safeParse(item);
    if (!parsed.success) {
      // The URL itself is not repeated: it may hold a password.
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be PostgreSQL URLs separated by commas" });
      return z.NEVER;
    }
  }
  return list;
});

/** "*" or a comma list of origins (`https://app.example.com,http://localhost:5173`), no paths. */
const origins = z.string().transform((value, ctx): string[] | "*" => {
  if (value.trim() === "*") return "*";
  const list = value
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !["http:", "https:"].includes(parsed.protocol) || parsed.origin !== origin) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `"${origin}" is not an origin like https://app.example.com`,
      });
      return z.NEVER;
    }
  }
  return list;
});

/** The names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const PROXY_RANGES = ["loopback", "linklocal", "uniquelocal"];

/** An IPv4 or IPv6 address, optionally with a prefix length (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrRange = (value: string): boolean => {
  const [address = "", prefix, ...rest] = value.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
};

/** TRUST_PROXY: a comma list of addresses, CIDR ranges or proxy-addr's range names. */
const proxies = z.string().transform((value, ctx): string[] => {
  const list = value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = list.filter((item) => !PROXY_RANGES.includes(item) && !isAddressOrRange(item));
  if (bad.length > 0) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `"${bad.join('", "')}": must be addresses, CIDR ranges (10.0.0.0/8) or ${PROXY_RANGES.join(", ")}, separated by commas`,
    });
    return z.NEVER;
  }
  return list;
});

/** How messages name the operator's CLI where GMI_CLI_NAME is not set: the repository's way. */
export const DEFAULT_CLI_NAME = "./scripts/pnpm gmi";

/**
 * GMI_CLI_NAME, the command the operator types to run `gmi` (the image sets `gmi`). Read on its own
 * so that `gmi help` works even when the rest of the configuration is invalid.
 */
export const cliNameFrom = (env: Record<string, string | undefined> = process.env): string =>
  env.GMI_CLI_NAME?.trim() || DEFAULT_CLI_NAME;

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: int(0, 65_535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  /** Standbys of DATABASE_URL that take snapshot, catalog and history reads (data/read-routing.ts). */
  DATABASE_READ_URL: postgresUrls.optional(),
  /** A standby further behind the primary than this sends its reads to the primary. */
  DATABASE_READ_MAX_LAG_MS: int(0, 3_600_000).default(5_000),
  /** How often each standby's replay and data are checked. */
  DATABASE_READ_CHECK_MS: int(50, 60_000).default(1_000),
  DATA_DIR: z.string().min(1).default(".data"),
  REDIS_URL: url(["redis:", "rediss:"]).optional(),
  /** Prefix of the rate-window keys: several deployments (or a bench) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default("gmi:rl:"),
  PUBLIC_BASE_URL: url(["http:", "https:"])
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CURSOR_SECRET: secret(32).optional(),
  /** Bearer token of GET /metrics; unset, /metrics is not served. */
  METRICS_TOKEN: secret(16).optional(),
  BODY_LIMIT_BYTES: int(1024).default(1_048_576),
  /** How long a looked-up key stays cached in a process; revocation takes effect within it. */
  AUTH_CACHE_TTL_MS: int(0, 60_000).default(5_000),
  /** 401s a client address may get in a minute before its next failures are 429s; 0: no limit. */
  AUTH_FAILURES_PER_MINUTE: int(0, 1_000_000).default(60),
  /** Proxies whose X-Forwarded-For names the client (addresses, CIDR ranges); unset: the socket's peer is. */
  TRUST_PROXY: proxies.optional(),
  /** How long whole answers to identical reads are kept (caches/response-cache.ts); 0: off. */
  RESPONSE_CACHE_TTL_MS: int(0, 60_000).default(1_000),
  /**
   * The lease interval: how often buffered usage of unmetered/overage plans is written to PostgreSQL,
   * and how often quota and rate-window leases are sized and idle ones given back (domain/limits/lease.ts).
   */
  USAGE_FLUSH_MS: int(50, 60_000).default(1_000),
  /**
   * How long a request waits for PostgreSQL before it is answered 503: its reads are given up on
   * (data/sql.ts, withReadTimeout), a quota reservation is left to finish (metering/postgres-quota.ts); 0: it
   * waits. Idempotency records of batches are always waited for.
   */
  DATABASE_WAIT_MS: int(0, 600_000).default(5_000),
  DEMAND_INDEX_WEIGHTS: weights.default(
    [DEFAULT_DEMAND_WEIGHTS.intent, DEFAULT_DEMAND_WEIGHTS.reach, DEFAULT_DEMAND_WEIGHTS.watch].join(","),
  ),
  LIQUIDITY_DEMAND_WEIGHT: z.coerce.number().min(0).max(1).default(DEFAULT_LIQUIDITY_WEIGHT),
  UNMET_MIN_SEARCHES: int(1).default(DEFAULT_UNMET_MIN_SEARCHES),
  ROLLUP_SCHEDULE: schedule.default("off"),
  /** Browser origins allowed to call the API (plugins/cors.ts); unset: no CORS headers at all. */
  CORS_ORIGINS: origins.optional(),
  GMI_CLI_NAME: z.string().trim().min(1).default(DEFAULT_CLI_NAME),
  /** The built seller dashboard served at /app (relative: to the repository root). */
  DASHBOARD_DIR: z.string().min(1).default("apps/web/dist"),
});

export type Config = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Standbys for reads (DATABASE_READ_URL); empty: every read on the primary. */
  standbys: { urls: string[]; maxLagMs: number; checkMs: number };
  dataDir: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  publicBaseUrl: string | undefined;
  corsOrigins: string[] | "*";
  dashboardDir: string;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  cursorSecret: string;
  metricsToken: string | undefined;
  bodyLimitBytes: number;
  authCacheTtlMs: number;
  /** 401s per client address and minute before 429s (AUTH_FAILURES_PER_MINUTE); 0: no limit. */
  authFailuresPerMinute: number;
  /** Proxies trusted to name the client in X-Forwarded-For (TRUST_PROXY); empty: none. */
  trustProxy: string[];
  usageFlushMs: number;
  databaseWaitMs: number;
  responseCacheTtlMs: number;
  analytics: {
    demandIndexWeights: { intent: number; reach: number; watch: number };
    liquidityDemandWeight: number;
    unmetMinSearches: number;
    rollupSchedule: string;
  };
  /** How messages and the start banner name the CLI (GMI_CLI_NAME). */
  cliName: string;
  /** Things worth a line in the start-up log (a derived development secret). */
  warnings: string[];
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses the environment once. Nothing else in the server reads process.env: everything is passed
 * down from here. A bad value throws a ConfigError naming each bad variable.
 */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  // Empty strings mean "unset" (a `FOO=` line in an env file), so defaults apply.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DATABASE_READ_URL?.length && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (standbys follow a PostgreSQL server, not the embedded one)",
    );
  }
  const dataDir = path.resolve(REPO_ROOT, e.DATA_DIR);
  const warnings: string[] = [];
  let cursorSecret = e.CURSOR_SECRET;
  if (!cursorSecret) {
    if (e.NODE_ENV === "production") {
      throw new ConfigError("Invalid configuration:\n  CURSOR_SECRET: is required when NODE_ENV=production");
    }
    // Derived from the data directory so cursors stay valid across restarts of one dev setup.
    cursorSecret = createHash("sha256").update(`gmi-dev-cursor-secret:${dataDir}`).digest("hex");
    warnings.push("CURSOR_SECRET is not set: using a derived development secret (set it in production)");
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    standbys: {
      urls: e.DATABASE_READ_URL ?? [],
      maxLagMs: e.DATABASE_READ_MAX_LAG_MS,
      checkMs: e.DATABASE_READ_CHECK_MS,
    },
    dataDir,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    corsOrigins: e.CORS_ORIGINS ?? [],
    dashboardDir: path.resolve(REPO_ROOT, e.DASHBOARD_DIR),
    logLevel: e.LOG_LEVEL,
    cursorSecret,
    metricsToken: e.METRICS_TOKEN,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    trustProxy: e.TRUST_PROXY ?? [],
    usageFlushMs: e.USAGE_FLUSH_MS,
    databaseWaitMs: e.DATABASE_WAIT_MS,
    responseCacheTtlMs: e.RESPONSE_CACHE_TTL_MS,
    analytics: {
      demandIndexWeights: e.DEMAND_INDEX_WEIGHTS,
      liquidityDemandWeight: e.LIQUIDITY_DEMAND_WEIGHT,
      unmetMinSearches: e.UNMET_MIN_SEARCHES,
      rollupSchedule: e.ROLLUP_SCHEDULE,
    },
    cliName: e.GMI_CLI_NAME,
    warnings,
  };
};

/** The scoring settings of the serving configuration, in the domain's terms. */
export const scoringOf = (analytics: Config["analytics"]): ScoringConfig => ({
  demandWeights: analytics.demandIndexWeights,
  liquidityWeight: analytics.liquidityDemandWeight,
  unmetMinSearches: analytics.unmetMinSearches,
});
