import { afterEach, describe, expect, it, vi } from "vitest";
import { type Logger, levelLogger } from "./log.js";

const recorder = () => {
  const lines: Array<[keyof Logger, string]> = [];
  const logger: Logger = {
    error: (m) => lines.push(["error", m]),
    warn: (m) => lines.push(["warn", m]),
    info: (m) => lines.push(["info", m]),
    debug: (m) => lines.push(["debug", m]),
  };
  const writeAll = (log: Logger) => {
    for (const level of ["error", "warn", "info", "debug"] as const) log[level](level);
  };
  return { lines, logger, writeAll };
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("log levels", () => {
  it.each([
    ["off", []],
    ["error", ["error"]],
    ["warn", ["error", "warn"]],
    ["info", ["error", "warn", "info"]],
    ["debug", ["error", "warn", "info", "debug"]],
  ] as const)("%s writes its own lines and those before it", (level, written) => {
    const { lines, logger, writeAll } = recorder();
    const log = levelLogger(logger, level);
    writeAll(log);
    expect(lines.map(([, m]) => m)).toEqual(written);
    expect(log.debugging).toBe(level === "debug");
  });

  it("defaults to warn; GMI_LOG sets it; the option wins over GMI_LOG", () => {
    const a = recorder();
    a.writeAll(levelLogger(a.logger));
    expect(a.lines.map(([, m]) => m)).toEqual(["error", "warn"]);
    vi.stubEnv("GMI_LOG", "debug");
    const b = recorder();
    b.writeAll(levelLogger(b.logger));
    expect(b.lines).toHaveLength(4);
    const c = recorder();
    c.writeAll(levelLogger(c.logger, "error"));
    expect(c.lines.map(([, m]) => m)).toEqual(["error"]);
  });

  it("a level that is not one of the five is reported and ignored", () => {
    vi.stubEnv("GMI_LOG", "verbose");
    const { lines, logger } = recorder();
    const log = levelLogger(logger);
    expect(lines).toEqual([["warn", expect.stringContaining('GMI_LOG is "verbose"')]]);
    expect(log.debugging).toBe(false);
  });
});
