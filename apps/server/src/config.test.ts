import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, REPO_ROOT } from "./config.js";

describe("loadConfig", () => {
  it("applies defaults and derives a development cursor secret with a warning", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      bodyLimitBytes: 1_048_576,
      databaseUrl: undefined,
    });
    expect(config.dataDir).toBe(`${REPO_ROOT.replace(/\/$/, "")}/.data`);
    expect(config.cursorSecret).toHaveLength(64);
    expect(config.warnings).toHaveLength(1);
    expect(config.analytics).toEqual({
      demandIndexWeights: { intent: 0.5, reach: 0.3, watch: 0.2 },
      liquidityDemandWeight: 0.7,
      unmetMinSearches: 5,
      rollupSchedule: "off",
    });
  });

  it("requires CURSOR_SECRET in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/CURSOR_SECRET/);
    const config = loadConfig({ NODE_ENV: "production", CURSOR_SECRET: "x".repeat(32) });
    expect(config.warnings).toEqual([]);
  });

  it("names every bad variable", () => {
    try {
      loadConfig({
        PORT: "http",
        DATABASE_URL: "mysql://x",
        DEMAND_INDEX_WEIGHTS: "0.5,0.5,0.5",
        ROLLUP_SCHEDULE: "daily",
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ["PORT", "DATABASE_URL", "DEMAND_INDEX_WEIGHTS", "ROLLUP_SCHEDULE"])
        expect(message).toContain(name);
    }
  });

  it("reads standbys from DATABASE_READ_URL, only beside a DATABASE_URL, never echoing a URL", () => {
    const primary = { DATABASE_URL: "postgres://gmi@db:5432/gmi" };
    const config = loadConfig({
      ...primary,
      DATABASE_READ_URL: " postgres://gmi:s3cret@standby-1:5432/gmi, postgresql://standby-2/gmi ",
    });
    expect(config.standbys).toEqual({
      urls: ["postgres://gmi:s3cret@standby-1:5432/gmi", "postgresql://standby-2/gmi"],
      maxLagMs: 5_000,
      checkMs: 1_000,
    });
    expect(loadConfig(primary).standbys.urls).toEqual([]);
    expect(() => loadConfig({ DATABASE_READ_URL: "postgres://standby/gmi" })).toThrow(/needs DATABASE_URL/);
    const bad = () =>
      loadConfig({ ...primary, DATABASE_READ_URL: "postgres://standby/gmi,mysql://u:s3cret@x" });
    expect(bad).toThrow(/DATABASE_READ_URL: must be PostgreSQL URLs/);
    expect(bad).not.toThrow(/s3cret/);
  });

  it("treats empty strings as unset and trims the public base URL", () => {
    const config = loadConfig({
      PORT: "",
      PUBLIC_BASE_URL: "https://api.example.com/",
      ROLLUP_SCHEDULE: "15 0 * * *",
    });
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe("https://api.example.com");
    expect(config.analytics.rollupSchedule).toBe("15 0 * * *");
  });

  it("refuses secrets that are variables nobody expanded, naming the variable", () => {
    const production = { NODE_ENV: "production", CURSOR_SECRET: "c".repeat(32) };
    // `${` spelled in two parts: these are the literal texts a compose tool failed to expand.
    const braced = (inner: string) => `$${"{"}${inner}}`;
    for (const literal of [
      braced("METRICS_TOKEN:-"),
      braced("METRICS_TOKEN"),
      "$METRICS_TOKEN",
      "Bearer-$TOKEN-0123456789",
    ]) {
      expect(() => loadConfig({ ...production, METRICS_TOKEN: literal })).toThrow(
        /METRICS_TOKEN: .*unexpanded variable/,
      );
    }
    expect(() =>
      loadConfig({
        NODE_ENV: "production",
        CURSOR_SECRET: braced("CURSOR_SECRET:?set CURSOR_SECRET to 32 characters"),
      }),
    ).toThrow(/CURSOR_SECRET: .*unexpanded variable/);
    // A real token, `$` included when no name follows it, is accepted as it is.
    const token = "a1b2c3d4e5f6a7b8c9d0$-+/=";
    expect(loadConfig({ ...production, METRICS_TOKEN: token }).metricsToken).toBe(token);
  });

  it("reads the failed-authentication limit and the trusted proxies", () => {
    expect(loadConfig({})).toMatchObject({ authFailuresPerMinute: 60, trustProxy: [] });
    const config = loadConfig({
      AUTH_FAILURES_PER_MINUTE: "0",
      TRUST_PROXY: " 10.0.0.7, 172.16.0.0/12,fd00::/8 ,::1, loopback",
    });
    expect(config.authFailuresPerMinute).toBe(0);
    expect(config.trustProxy).toEqual(["10.0.0.7", "172.16.0.0/12", "fd00::/8", "::1", "loopback"]);
    for (const bad of ["nginx", "10.0.0.0/33", "10.0.0.1/8/8", "fd00::/129", "10.0.0.0/x", "*"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: "-1" })).toThrow(/AUTH_FAILURES_PER_MINUTE/);
  });
});
