import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runGmi, type ServerProcess, startServerProcess } from "./helpers/processes.js";

/**
 * The embedded database (no DATABASE_URL) shared by a running server and `gmi` commands, each a
 * real process, as an operator runs them in two terminals. No PostgreSQL is needed here.
 */
let dataDir: string;
let env: Record<string, string>;
const running: ServerProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gmi-embedded-"));
  // Production: no demo marketplace to generate (only the accounts matter here), and GMI_CLI_NAME
  // as the image sets it.
  env = {
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    CURSOR_SECRET: "embedded-shared-test-cursor-secret-0123456789",
    GMI_CLI_NAME: "gmi",
  };
});
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    await server.exited;
  }
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const start = async () => {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
};
const gmi = async (...args: string[]) => {
  const ran = await runGmi(args, env);
  return { ...ran, json: () => JSON.parse(ran.stdout) };
};
const ownerSocket = () => path.join(dataDir, "socket", "owner");
const postgresSocket = () => path.join(dataDir, "socket", ".s.PGSQL.5432");

describe("gmi beside a server on the embedded database", () => {
  it("creates and lists organizations and keys through the running server; the key works at once", async () => {
    const server = await start();
    expect(server.output()).toContain(`${server.baseUrl}/docs`);
    expect(server.output()).toContain("Create an API key with: gmi keys create --org <id>");

    const org = await gmi("orgs", "create", "--name", "Acme", "--plan", "pro", "--json");
    expect(org.code, org.stderr).toBe(0);
    const orgId = String(org.json().id);
    const created = await gmi("keys", "create", "--org", orgId, "--scopes", "games.read", "--json");
    expect(created.code, created.stderr).toBe(0);
    const key = created.json();

    const keys = await gmi("keys", "list", "--org", orgId, "--json");
    expect(keys.json().keys).toEqual([expect.objectContaining({ id: key.id, last_four: key.last_four })]);
    const orgs = await gmi("orgs", "list", "--json");
    expect(orgs.json().organizations).toEqual([
      expect.objectContaining({ id: Number(orgId), name: "Acme", plan: "pro", clients: 0, active_keys: 1 }),
    ]);

    const response = await fetch(`${server.baseUrl}/api/v1/games/titles`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(response.status).toBe(200);
  }, 300_000);

  it("refuses a second server on the same data folder, naming the first and what to do", async () => {
    const first = await start();
    const second = startServerProcess(env);
    await expect(second).rejects.toThrow(
      new RegExp(`Another GMI server \\(pid ${first.child.pid} at ${first.baseUrl}\\) already serves`),
    );
    await expect(second).rejects.toThrow(/another DATA_DIR or a DATABASE_URL/);
    // The first one is untouched.
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
  }, 300_000);

  it("after a server is SIGKILLed, its leftover sockets are cleared by the next command and the next start", async () => {
    const killed = await start();
    const org = await gmi("orgs", "create", "--name", "Before the kill", "--plan", "free", "--json");
    expect(org.code, org.stderr).toBe(0);
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(existsSync(ownerSocket())).toBe(true);
    expect(existsSync(postgresSocket())).toBe(true);

    // No server: the command opens the database itself, and leaves nothing behind.
    const alone = await gmi("orgs", "list", "--json");
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.json().organizations.map((o: { name: string }) => o.name)).toContain("Before the kill");
    expect(existsSync(ownerSocket())).toBe(false);

    // Killed again, then a server starts over the leftovers and serves the same data.
    const again = await start();
    again.child.kill("SIGKILL");
    await again.exited;
    const restarted = await start();
    // A log line, not the banner: the log is written in batches, at least once a second.
    await expect
      .poll(() => restarted.output(), { timeout: 5_000 })
      .toMatch(/cleared the embedded database's lock left by a killed process/);
    const listed = await gmi("orgs", "list", "--json");
    expect(listed.json().organizations.map((o: { name: string }) => o.name)).toContain("Before the kill");

    // A graceful stop removes both sockets.
    restarted.child.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
    expect(existsSync(ownerSocket())).toBe(false);
    expect(existsSync(postgresSocket())).toBe(false);
  }, 600_000);
});
