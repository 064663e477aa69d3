import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliDeps } from "../src/cli/run.js";
import { runCli } from "../src/cli/run.js";
import { ensurePlans } from "../src/data/accounts.js";
import { hashApiKey } from "../src/domain/auth/api-key.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { runGmi } from "./helpers/processes.js";
import { testDatabaseUrl } from "./helpers/setup.js";

let test: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  test = await createTestDatabase();
  await ensurePlans(test.db.pool);
  t = await startTestApp(test.db.pool);
});
afterAll(async () => {
  await t?.close();
  await test?.drop();
});

/** Runs the dispatcher in-process on the test database; returns exit code and what it printed. */
const gmi = async (...argv: string[]) => {
  let stdout = "";
  let stderr = "";
  const deps: CliDeps = {
    io: {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
    },
    openDatabase: async () => ({ pool: test.db.pool, close: async () => {} }),
  };
  const code = await runCli(argv, deps);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
};

describe("gmi (in process)", () => {
  it("creates an organization, a client and a key that authenticates; lists without secrets; revokes", async () => {
    const org = await gmi("orgs", "create", "--name", "Acme", "--plan", "starter", "--json");
    expect(org.code).toBe(0);
    expect(org.json()).toMatchObject({
      id: expect.any(Number),
      name: "Acme",
      plan: "starter",
      status: "active",
    });
    const orgId = String(org.json().id);

    const client = await gmi("clients", "create", "--org", orgId, "--name", "backend", "--json");
    expect(client.json()).toMatchObject({
      organization_id: Number(orgId),
      name: "backend",
      status: "active",
    });

    const created = await gmi(
      "keys",
      "create",
      "--org",
      orgId,
      "--client",
      String(client.json().id),
      "--scopes",
      "games.read",
      "--name",
      "ci",
      "--expires-in",
      "30",
      "--json",
    );
    expect(created.code).toBe(0);
    const key = created.json();
    expect(key).toMatchObject({
      id: expect.any(Number),
      key: expect.stringMatching(/^gmi_live_/),
      scopes: ["games.read"],
    });
    expect(key.last_four).toBe(key.key.slice(-4));
    expect((await t.app.inject({ url: "/api/v1/games/titles", headers: bearer(key.key) })).statusCode).toBe(
      200,
    );

    const listed = await gmi("keys", "list", "--org", orgId, "--json");
    expect(listed.json().keys).toHaveLength(1);
    expect(listed.stdout).not.toContain(key.key);
    expect(listed.stdout).not.toContain(hashApiKey(key.key));

    const human = await gmi("keys", "list", "--org", orgId);
    expect(human.stdout).toContain(key.last_four);

    expect((await gmi("keys", "revoke", "--id", String(key.id), "--json")).code).toBe(0);
    expect((await t.app.inject({ url: "/api/v1/games/titles", headers: bearer(key.key) })).statusCode).toBe(
      401,
    );
  });

  it("set-status suspends organizations and clients", async () => {
    const org = (await gmi("orgs", "create", "--name", "S", "--plan", "free", "--json")).json();
    const suspended = await gmi(
      "orgs",
      "set-status",
      "--id",
      String(org.id),
      "--status",
      "suspended",
      "--json",
    );
    expect(suspended.json()).toMatchObject({ id: org.id, status: "suspended" });
    const client = (await gmi("clients", "create", "--org", String(org.id), "--name", "c", "--json")).json();
    const c = await gmi(
      "clients",
      "set-status",
      "--id",
      String(client.id),
      "--status",
      "suspended",
      "--json",
    );
    expect(c.json()).toMatchObject({ status: "suspended" });
  });

  it("orgs list shows every organization with its plan, status, clients and usable keys", async () => {
    const org = (await gmi("orgs", "create", "--name", "Listed", "--plan", "starter", "--json")).json();
    await gmi("clients", "create", "--org", String(org.id), "--name", "web");
    const key = (
      await gmi("keys", "create", "--org", String(org.id), "--scopes", "games.read", "--json")
    ).json();
    await gmi("keys", "create", "--org", String(org.id), "--scopes", "games.read");
    await gmi("keys", "revoke", "--id", String(key.id));
    const listed = (await gmi("orgs", "list", "--json")).json().organizations;
    expect(listed.find((o: { id: number }) => o.id === org.id)).toEqual({
      id: org.id,
      name: "Listed",
      plan: "starter",
      status: "active",
      created_at: expect.any(String),
      clients: 1,
      active_keys: 1,
    });
    const ids = listed.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const human = await gmi("orgs", "list");
    expect(human.stdout).toMatch(new RegExp(`\\n\\s+${org.id}\\s+Listed\\s+starter\\s+active\\s+1\\s+1\\s`));
  });

  it("plans list prints the contract's plans", async () => {
    const plans = (await gmi("plans", "list", "--json")).json().plans;
    expect(plans.map((p: { slug: string }) => p.slug)).toEqual(
      expect.arrayContaining(["free", "starter", "pro", "enterprise"]),
    );
  });

  it("bad arguments: non-zero exit, one line on stderr, or one JSON error with --json", async () => {
    const cases: string[][] = [
      ["frobnicate", "now"],
      ["orgs", "create", "--name", "X"],
      ["orgs", "create", "--name", "X", "--plan", "gold"],
      ["keys", "create", "--org", "1", "--scopes", "games.read,admin"],
      ["keys", "create", "--org", "999999", "--scopes", "games.read"],
      ["orgs", "set-status", "--id", "999999", "--status", "active"],
      ["keys", "list", "--org", "abc"],
      ["orgs", "create", "--name", "X", "--plan", "free", "--bogus"],
    ];
    for (const argv of cases) {
      const plain = await gmi(...argv);
      expect(plain.code, argv.join(" ")).not.toBe(0);
      expect(plain.stdout).toBe("");
      expect(plain.stderr.trim().split("\n")).toHaveLength(1);
      const json = await gmi(...argv, "--json");
      expect(json.code).not.toBe(0);
      expect(json.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });
});

describe.skipIf(!testDatabaseUrl())("gmi (real subprocess through pnpm)", () => {
  it("prints exactly one JSON object on stdout", async () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const { stdout } = await promisify(execFile)(
      path.join(root, "scripts", "pnpm"),
      ["--silent", "gmi", "orgs", "create", "--name", "Sub Process", "--plan", "pro", "--json"],
      { cwd: root, env: { ...process.env, DATABASE_URL: test.url }, timeout: 60_000 },
    );
    const parsed = JSON.parse(stdout);
    expect(parsed).toMatchObject({
      id: expect.any(Number),
      name: "Sub Process",
      plan: "pro",
      status: "active",
    });
  }, 60_000);
});

describe.skipIf(!testDatabaseUrl())("gmi seed and rollup (real subprocesses)", () => {
  let data: TestDatabase;
  beforeAll(async () => {
    data = await createTestDatabase();
  });
  afterAll(async () => {
    await data?.drop();
  });
  const run = async (...args: string[]) => {
    const ran = await runGmi(args, { DATABASE_URL: data.url, GMI_CLI_NAME: "gmi" });
    return { ...ran, json: () => JSON.parse(ran.stdout) };
  };
  const seed = ["seed", "--demo", "--scale", "3000", "--end-date", "2026-11-20", "--rollup-days", "1"];

  it("rollup on a database without events says what to load", async () => {
    const empty = await run("rollup");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no events; load some with `gmi import FILE` \(or `gmi seed --demo`\)/);
  }, 120_000);

  it("seed refuses a database with events unless --add, and then rolls its dates up again", async () => {
    const first = await run(...seed, "--json");
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({ events: 3000, computed: ["2026-11-20"] });

    const again = await run(...seed);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("already holds 3,000 events; seeding would add 3,000 demo events");
    expect(again.stderr).toContain("--add");

    const added = await run(...seed, "--add", "--json");
    expect(added.code, added.stderr).toBe(0);
    // The date was rolled up already; its events changed, so it is computed again, not skipped.
    expect(added.json()).toMatchObject({ events: 3000, computed: ["2026-11-20"] });
  }, 240_000);

  it("rollup of dates already computed says so and names --force", async () => {
    const skipped = await run("rollup", "--date", "2026-11-20");
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toBe(
      "nothing to roll up: 2026-11-20 already rolled up, skipped; to compute again (after late events): gmi rollup --date 2026-11-20 --force\n",
    );
    const json = await run("rollup", "--date", "2026-11-20", "--days", "2", "--json");
    expect(json.json()).toEqual({ computed: ["2026-11-19"], skipped: ["2026-11-20"], without_events: [] });
    const forced = await run("rollup", "--date", "2026-11-20", "--force", "--json");
    expect(forced.json()).toEqual({ computed: ["2026-11-20"], skipped: [], without_events: [] });
  }, 240_000);
});
