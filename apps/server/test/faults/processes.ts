import type { ChildProcess } from "node:child_process";
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A port nobody listens on right now (the kernel's pick, released at once). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

export const waitFor = async (condition: () => Promise<boolean>, timeoutMs = 15_000, stepMs = 100) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
};

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Everything a fault test started, stopped by the test's afterAll, and at exit if a test dies first. */
const started = new Set<() => void>();
process.once("exit", () => {
  for (const stop of started) stop();
});

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => existsSync(path.join(dir, command)));

/** Whether this machine can run the fault tests' own servers (CI installs both). */
export const canRunRedis = onPath("redis-server");
export const canRunPostgres = existsSync("/usr/lib/postgresql");

/** A redis-server of the test's own on a free port, without persistence. */
export const startRedis = async () => {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: "ignore",
      },
    );
    await waitFor(() => portOpen(port));
  };
  const kill = () => {
    child?.kill("SIGKILL");
    child = null;
  };
  await start();
  started.add(kill);
  return {
    url: `redis://127.0.0.1:${port}`,
    /** SIGKILL: the outage a crash gives, no goodbye to clients. */
    stop: async () => {
      const dying = child;
      kill();
      if (dying && dying.exitCode === null) await new Promise((r) => dying.once("exit", r));
    },
    start,
    close: async () => {
      kill();
      started.delete(kill);
    },
  };
};

/** The PostgreSQL binaries (Debian's layout: /usr/lib/postgresql/<version>/bin), newest first. */
const postgresBin = (): string => {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, "bin");
    if (existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin");
};

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` user. */
const asPostgresUser = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args);

/** A PostgreSQL server in `data`, run with pg_ctl on `port`; its socket and log in `dir`. */
const runCluster = async (dir: string, data: string, port: number, settings: Record<string, string>) => {
  const bin = postgresBin();
  const pgCtl = (...args: string[]) => asPostgresUser(path.join(bin, "pg_ctl"), ["-D", data, ...args]);
  const options = Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`);
  const start = async () => {
    await pgCtl(
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off${options.join("")}`,
      "-l",
      path.join(dir, "log"),
      "-w",
      "start",
    );
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await pgCtl("-m", mode, "-w", "stop").catch(() => {});
  };
  const postmasterPid = () => Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  // The postmaster and its children (each session's backend among them), when frozen.
  let frozen: number[] = [];
  const signalAll = (pids: number[], signal: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  // At exit nothing can be awaited: a synchronous immediate stop of the postmaster.
  const killAtExit = () => {
    signalAll(frozen, "SIGCONT");
    try {
      const pid = postmasterPid();
      if (pid > 0) process.kill(pid, "SIGQUIT");
    } catch {
      // not running
    }
  };
  await start();
  started.add(killAtExit);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    /**
     * SIGSTOP to the postmaster and every process it started: a server that stops answering
     * (a stalled disk, a paused VM) while its sockets stay open, so nothing is refused or reset.
     */
    freeze: async () => {
      // The postmaster first: stopped, it starts no process that the list below would miss.
      const pid = postmasterPid();
      frozen = [pid];
      signalAll(frozen, "SIGSTOP");
      const { stdout } = await run("pgrep", ["-P", String(pid)]);
      const children = stdout.split("\n").filter(Boolean).map(Number);
      frozen.push(...children);
      signalAll(children, "SIGSTOP");
    },
    thaw: () => {
      signalAll(frozen, "SIGCONT");
      frozen = [];
    },
    close: async () => {
      signalAll(frozen, "SIGCONT");
      await stop("immediate");
      started.delete(killAtExit);
      await rm(dir, { recursive: true, force: true });
    },
  };
};

export type PostgresServer = Awaited<ReturnType<typeof runCluster>>;

/** A temporary folder the `postgres` user can write in (initdb and pg_basebackup run as it under root). */
const clusterDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "gmi-fault-pg-"));
  await chmod(dir, 0o777);
  return dir;
};

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, pg_ctl on a free port,
 * trust authentication, replication connections allowed from 127.0.0.1 as initdb sets them), which
 * the test stops and starts. `url` points at its `postgres` database. `settings`: more server
 * settings (`-c name=value`), e.g. shared_preload_libraries.
 */
export const startPostgres = async (options: { settings?: Record<string, string> } = {}) => {
  const dir = await clusterDir();
  const data = path.join(dir, "data");
  await asPostgresUser(path.join(postgresBin(), "initdb"), [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
  ]);
  return runCluster(dir, data, await freePort(), options.settings ?? {});
};

/**
 * A streaming standby of `primary` on a port of its own: `pg_basebackup -R` (a copy of the primary
 * that follows its WAL over a replication connection), started in hot standby, so it answers reads.
 * Stop it to make it down; `SELECT pg_wal_replay_pause()` on it to make it lag.
 */
export const startStandby = async (primary: { port: number }) => {
  const dir = await clusterDir();
  const data = path.join(dir, "data");
  await asPostgresUser(path.join(postgresBin(), "pg_basebackup"), [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    data,
    "-R",
    "-X",
    "stream",
    "--no-sync",
  ]);
  return runCluster(dir, data, await freePort(), { hot_standby: "on" });
};
