/**
 * The processes `bench:traffic` runs besides itself: the load generator and the bare Fastify twin,
 * each in a process of its own (entered with `--load` / `--twin` on the bench's own command line),
 * and the CPU time of a process read from /proc.
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";

/** One request as sent: the same bytes go to the app and to its twin. */
export type LoadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

/** What a phase measured (latencies in ms). */
export type LoadResult = {
  total: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
};

/** Each status's share of a phase's answers, and the errors: `200:97.1% 429:2.9%`. */
export const statusShares = (result: LoadResult): string =>
  Object.entries(result.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}:${((100 * n) / Math.max(1, result.total)).toFixed(1)}%`)
    .join(" ") + (result.errors ? ` errors:${result.errors}` : "");

/** The header naming the answer the twin gives: the index into its list of recorded answers. */
export const ANSWER_HEADER = "x-bench-answer";

/** A recorded answer of the app, served by the twin. */
export type Answer = { status: number; body: unknown };

const onceMessage = <T>(child: ChildProcess): Promise<T> =>
  new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message as T));
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });

/**
 * Drives `url` with the requests in `file` (a JSON array of LoadRequest), in a loop, from a child
 * process: the load generator competes with the server only for the cores, not its event loop.
 */
/**
 * `rate`: requests per second offered over all connections (open loop); unset: as fast as answered.
 * `amount`: stop after this many requests instead of after `duration` seconds.
 */
export type LoadOptions = {
  url: string;
  file: string;
  connections: number;
  duration: number;
  rate?: number;
  amount?: number;
};

export const runLoad = async (entry: string, options: LoadOptions): Promise<LoadResult> => {
  const child = fork(entry, ["--load"], { execArgv: process.execArgv });
  child.send(options);
  try {
    return await onceMessage<LoadResult>(child);
  } finally {
    child.removeAllListeners("exit");
    child.kill();
  }
};

export const loadChild = () =>
  process.once("message", async (message) => {
    const options = message as LoadOptions;
    const list = JSON.parse(readFileSync(options.file, "utf8")) as LoadRequest[];
    let next = 0;
    const result = await autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.duration,
      ...(options.rate ? { overallRate: options.rate } : {}),
      ...(options.amount ? { amount: options.amount } : {}),
      requests: [
        {
          setupRequest: (request) => {
            const item = list[next++ % list.length] as LoadRequest;
            return {
              ...request,
              method: item.method as "GET",
              path: item.path,
              headers: item.headers,
              body: item.body,
            };
          },
        },
      ],
    });
    const statuses: Record<string, number> = {};
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count;
    const answer: LoadResult = {
      total: result.requests.total,
      rps: result.requests.total / options.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      statuses,
      errors: result.errors + result.timeouts,
    };
    process.send?.(answer);
  });

/**
 * Starts the bare twin: one Fastify route per method answering the recorded answer asked for.
 * `databaseUrl`: the twin first makes one PostgreSQL round trip per request (below).
 */
export const startTwin = async (entry: string, answersFile: string, databaseUrl?: string) => {
  const args = ["--twin", answersFile, ...(databaseUrl ? [databaseUrl] : [])];
  const child = fork(entry, args, { execArgv: process.execArgv });
  const { port } = await onceMessage<{ port: number }>(child);
  return { child, url: `http://127.0.0.1:${port}` };
};

/** The twin's one round trip: a prepared one-row SELECT by primary key, as cheap as a read gets. */
const TWIN_READ = "SELECT id, display_game_name FROM games WHERE id >= $1 ORDER BY id LIMIT 1";

/** The twin's process (`--twin <answers file> [<database URL>]` on the bench's command line). */
export const twinChild = async (argv: string[]) => {
  const at = argv.indexOf("--twin");
  const answers = JSON.parse(readFileSync(argv[at + 1] ?? "", "utf8")) as Answer[];
  const databaseUrl = argv[at + 2];
  // The server's own pool (db/open.ts): as many connections, kept while idle; both wait alike.
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10, min: 10 }) : null;
  const app = Fastify();
  // Parses the body like any route, then answers the recorded body, which Fastify serializes.
  const handler = async (
    request: { headers: Record<string, unknown> },
    reply: import("fastify").FastifyReply,
  ) => {
    const index = Number(request.headers[ANSWER_HEADER]);
    const answer = answers[index];
    if (!answer) return reply.status(500).send({ error: "no such answer" });
    if (pool) await pool.query({ name: "twin_read", text: TWIN_READ, values: [index % 2_000] });
    return reply.status(answer.status).send(answer.body);
  };
  app.get("/*", handler);
  app.post("/*", handler);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
};

const TICKS_PER_SECOND = 100;

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux). */
export const processCpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at state; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
};

/**
 * The entry of a bench that runs these children: the same file is the load generator (`--load`),
 * the twin (`--twin`) or the bench itself (`main`).
 */
export const benchEntry = (main: () => Promise<void>) => {
  const failed = (error: unknown) => {
    console.error(error);
    process.exit(1);
  };
  if (process.argv.includes("--load")) loadChild();
  else if (process.argv.includes("--twin")) twinChild(process.argv).catch(failed);
  else main().catch(failed);
};

/** Deletes the Redis keys under `prefix` (a run's own rate windows). */
export const deleteKeys = async (redis: import("ioredis").Redis, prefix: string) => {
  const stream = redis.scanStream({ match: `${prefix}*`, count: 1_000 });
  for await (const batch of stream) if ((batch as string[]).length) await redis.del(...(batch as string[]));
};
