import { mkdir, rmdir, stat, unlink } from "node:fs/promises";
import net from "node:net";
import path from "node:path";

/**
 * Who holds an embedded database. Exactly one process may open a PGlite data folder (two would
 * write the same files and corrupt them), so the first one to claim it owns it and serves it on its
 * Unix socket; any other process is told who the owner is and connects to that socket instead.
 */
export type OwnerInfo = {
  pid: number;
  /** A server serves the database for as long as it runs; a CLI command only while it works. */
  role: "server" | "cli";
  /** What the owner runs, for messages (`gmi seed --demo`, `server`). */
  command: string;
  /** `starting` while it opens and migrates the database; `ready` once its socket serves it. */
  state: "starting" | "ready";
  /** The folder of its PostgreSQL socket (`.s.PGSQL.5432`), once ready. */
  socketDir?: string;
  /** A server's HTTP address, once it listens. */
  httpUrl?: string;
  startedAt: string;
};

export type Ownership = {
  info(): OwnerInfo;
  update(patch: Partial<Pick<OwnerInfo, "state" | "socketDir" | "httpUrl">>): void;
  /** Whether a stale claim of a killed process was cleared on the way in. */
  recoveredStale: boolean;
  release(): Promise<void>;
};

export type Claim = { owned: Ownership } | { owner: OwnerInfo };

/**
 * The claim is a listening Unix socket, `<dataDir>/socket/owner`: binding a path is atomic, and
 * whether anyone still listens on it is known from the kernel (a connection is refused once the
 * process is gone, however it died: no pid files to trust, no pid reuse to fear). The owner answers
 * each connection with its OwnerInfo as one JSON line.
 */
export const ownerSocketPath = (dataDir: string) => path.resolve(dataDir, "socket", "owner");

const GUARD_STALE_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const listen = (socketPath: string, answer: () => OwnerInfo): Promise<net.Server> =>
  new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      socket.on("error", () => {});
      socket.end(`${JSON.stringify(answer())}\n`);
    });
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      // The claim must not keep a finished command alive.
      server.unref();
      resolve(server);
    });
  });

/** Connects to the claim socket: the socket when someone listens, null when nobody does (stale). */
const connect = (socketPath: string): Promise<net.Socket | null> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => resolve(socket));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(null);
      else reject(error);
    });
  });

const readInfo = (socket: net.Socket, timeoutMs: number): Promise<OwnerInfo> =>
  new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the owner of the embedded database did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once("end", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(text) as OwnerInfo);
      } catch {
        reject(new Error(`unreadable answer from the owner of the embedded database: ${text.slice(0, 200)}`));
      }
    });
  });

/**
 * A short mutual exclusion around "probe, clear a stale claim, bind": without it two processes that
 * both found the claim stale could each clear the other's fresh one. A folder (mkdir is atomic);
 * one left behind by a process killed inside these few milliseconds is cleared after 10 s.
 */
const withGuard = async <T>(guardPath: string, work: () => Promise<T>): Promise<T> => {
  for (;;) {
    try {
      await mkdir(guardPath);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const since = await stat(guardPath).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > GUARD_STALE_MS) await rmdir(guardPath).catch(() => {});
      else await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    await rmdir(guardPath).catch(() => {});
  }
};

/**
 * Claims the embedded database under `dataDir` for this process, or reports who holds it. A claim
 * left by a process that is gone (killed, crashed) is cleared and taken over.
 */
export const claimDataDir = async (
  dataDir: string,
  me: { role: OwnerInfo["role"]; command: string },
): Promise<Claim> => {
  const socketPath = ownerSocketPath(dataDir);
  await mkdir(path.dirname(socketPath), { recursive: true });
  let info: OwnerInfo = {
    pid: process.pid,
    role: me.role,
    command: me.command,
    state: "starting",
    startedAt: new Date().toISOString(),
  };
  type Outcome = { live: net.Socket } | { server: net.Server; stale: boolean };
  const outcome = await withGuard<Outcome>(`${socketPath}.claiming`, async () => {
    try {
      return { server: await listen(socketPath, () => info), stale: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    }
    const live = await connect(socketPath);
    if (live) return { live };
    await unlink(socketPath).catch(() => {});
    return { server: await listen(socketPath, () => info), stale: true };
  });
  if ("live" in outcome) return { owner: await readInfo(outcome.live, 30_000) };
  const { server, stale } = outcome;
  let released = false;
  return {
    owned: {
      info: () => info,
      update: (patch) => {
        info = { ...info, ...patch };
      },
      recoveredStale: stale,
      release: async () => {
        if (released) return;
        released = true;
        // Closing a listening Unix socket removes its file.
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    },
  };
};

/** Who holds the embedded database under `dataDir` now, or null when nobody does. */
export const currentOwner = async (dataDir: string, timeoutMs = 30_000): Promise<OwnerInfo | null> => {
  const socket = await connect(ownerSocketPath(dataDir));
  return socket ? readInfo(socket, timeoutMs) : null;
};
