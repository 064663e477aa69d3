import { describe, expect, it } from "vitest";
import type { ParsedLine } from "./parse-line.js";
import { MAX_LINE_LENGTH, parseLineBySchemas, parseLine as parseLineFast } from "./parse-line.js";

/** Every line of these tests goes through the fast path and the schemas alone: both must agree. */
const parseLine = (text: string, line: number): ParsedLine => {
  const parsed = parseLineFast(text, line);
  expect(parsed).toEqual(parseLineBySchemas(text, line));
  return parsed;
};
const parse = (value: unknown, line = 1): ParsedLine => parseLine(JSON.stringify(value), line);
const record = (value: unknown) => {
  const parsed = parse(value);
  if (parsed.kind !== "record") throw new Error(`expected a record, got ${JSON.stringify(parsed)}`);
  return parsed.record;
};
const reason = (value: unknown) => {
  const parsed = typeof value === "string" ? parseLine(value, 7) : parse(value, 7);
  if (parsed.kind !== "error") throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  expect(parsed.error.line).toBe(7);
  return parsed.error.reason;
};

const search = {
  type: "search",
  query: "Chrono Trigger SNES",
  user_id: "u3",
  occurred_at: "2026-11-20T23:30:00-02:00",
  source: "pricing",
  device: "mobile",
  result_count: 12,
  condition: "loose",
  game_id: 101,
  console_id: null,
};

describe("catalog lines", () => {
  it("reads a console", () => {
    expect(record({ type: "console", id: 1, name: "Super Nintendo", slug: "snes" })).toEqual({
      type: "console",
      id: 1,
      name: "Super Nintendo",
      slug: "snes",
    });
  });

  it("reads a game, normalizing prices to two decimals and ignoring extra fields", () => {
    expect(
      record({
        type: "game",
        id: 101,
        console_id: 1,
        display_game_name: " Chrono Trigger ",
        marketplace_game_name: "chrono-trigger",
        enabled: true,
        prices: { loose: "149.99", complete: 289, new: null },
        genre: "rpg",
      }),
    ).toEqual({
      type: "game",
      id: 101,
      consoleId: 1,
      displayGameName: "Chrono Trigger",
      marketplaceGameName: "chrono-trigger",
      enabled: true,
      prices: { loose: "149.99", complete: "289.00", new: null },
      observedAt: null,
    });
  });

  it("reads when the prices were observed, in canonical UTC, and refuses a time without an offset", () => {
    const game = { type: "game", id: 5, console_id: 1, display_game_name: "X", marketplace_game_name: "x" };
    expect(record({ ...game, observed_at: "2026-11-20T11:00:00+01:00" })).toMatchObject({
      observedAt: "2026-11-20T10:00:00.000Z",
    });
    expect(record({ ...game, observed_at: null })).toMatchObject({ observedAt: null });
    expect(reason({ ...game, observed_at: "2026-11-20T10:00:00" })).toContain("observed_at");
  });

  it("defaults enabled to true and missing prices to null", () => {
    const game = { type: "game", id: 5, console_id: 1, display_game_name: "X", marketplace_game_name: "x" };
    expect(record({ ...game, prices: null })).toMatchObject({
      enabled: true,
      prices: { loose: null, complete: null, new: null },
    });
    expect(record({ ...game, prices: { loose: "12.5" } })).toMatchObject({
      prices: { loose: "12.50", complete: null },
    });
    expect(record({ ...game, prices: { loose: 149.99 } })).toMatchObject({ prices: { loose: "149.99" } });
  });

  it.each([
    [{ loose: "-1.00" }, "prices.loose"],
    [{ loose: "1.999" }, "prices.loose"],
    [{ loose: 1.999 }, "prices.loose"],
    [{ loose: "abc" }, "prices.loose"],
  ])("refuses the price %j", (prices, path) => {
    const game = {
      type: "game",
      id: 5,
      console_id: 1,
      display_game_name: "X",
      marketplace_game_name: "x",
      prices,
    };
    expect(reason(game)).toContain(path);
  });

  it("refuses a slug that is not lower-case and hyphenated", () => {
    expect(reason({ type: "console", id: 1, name: "SNES", slug: "Super NES" })).toContain("slug");
  });
});

describe("event lines", () => {
  it("reads a redirect, putting it on its UTC day", () => {
    expect(
      record({
        type: "redirect",
        game_id: 101,
        user_id: "u1",
        occurred_at: "2026-11-20T10:00:00Z",
        condition: "cib",
        device: "mobile",
      }),
    ).toEqual({
      type: "redirect",
      eventId: null,
      gameId: 101,
      userId: "u1",
      occurredAt: "2026-11-20T10:00:00.000Z",
      day: "2026-11-20",
      condition: "cib",
      device: "mobile",
    });
  });

  it("lets condition and device be absent or null on a redirect; any is no condition", () => {
    const base = { type: "redirect", game_id: 101, user_id: 42, occurred_at: "2026-11-20T10:00:00Z" };
    expect(record(base)).toMatchObject({ userId: "42", condition: null, device: null });
    expect(record({ ...base, condition: "any", device: null })).toMatchObject({ condition: null });
  });

  it("reads a watch and refuses one removed before it was created", () => {
    const watch = {
      type: "watch",
      game_id: 101,
      user_id: "u2",
      created_at: "2026-11-01T00:00:00Z",
      condition: "loose",
    };
    expect(record(watch)).toMatchObject({ removedAt: null, condition: "loose" });
    expect(record({ ...watch, removed_at: "2026-11-02T00:00:00+00:00" })).toMatchObject({
      removedAt: "2026-11-02T00:00:00.000Z",
    });
    expect(reason({ ...watch, removed_at: "2026-10-31T23:59:59Z" })).toContain("removed_at");
  });

  it("reads a search with its normalized query, converting the offset to UTC", () => {
    expect(record(search)).toEqual({
      type: "search",
      eventId: null,
      rawQuery: "Chrono Trigger SNES",
      query: "chrono trigger snes",
      userId: "u3",
      occurredAt: "2026-11-21T01:30:00.000Z",
      day: "2026-11-21",
      source: "pricing",
      device: "mobile",
      resultCount: 12,
      condition: "loose",
      gameId: 101,
      consoleId: null,
    });
  });

  it("accepts a leap day and fractional seconds", () => {
    expect(record({ ...search, occurred_at: "2028-02-29T23:59:59.5+00:00" })).toMatchObject({
      occurredAt: "2028-02-29T23:59:59.500Z",
      day: "2028-02-29",
    });
  });

  it("lets condition, game_id and console_id be absent on a search", () => {
    const { condition, game_id, console_id, ...bare } = search;
    expect(record(bare)).toMatchObject({ condition: null, gameId: null, consoleId: null });
  });

  it.each([
    [{ ...search, occurred_at: "2026-11-20T10:00:00" }, "occurred_at"],
    [{ ...search, occurred_at: "yesterday" }, "occurred_at"],
    [{ ...search, occurred_at: "2026-02-29T10:00:00Z" }, "occurred_at"],
    [{ ...search, occurred_at: "2026-11-20T10:00Z" }, "occurred_at"],
    [{ ...search, source: "app" }, "source"],
    [{ ...search, device: null }, "device"],
    [{ ...search, result_count: -1 }, "result_count"],
    [{ ...search, result_count: 1.5 }, "result_count"],
    [{ ...search, condition: "mint" }, "condition"],
    [{ ...search, game_id: 0 }, "game_id"],
    [{ ...search, user_id: "" }, "user_id"],
    [{ ...search, query: "?!" }, "nothing searchable"],
  ])("refuses %j", (line, expected) => {
    expect(reason(line)).toContain(expected);
  });
});

describe("malformed lines", () => {
  it("skips blank lines", () => {
    expect(parseLine("   ", 3)).toEqual({ kind: "blank" });
  });

  it.each([
    ["{not json", "not valid JSON"],
    ["[1,2]", "not a JSON object"],
    ["null", "not a JSON object"],
    ['{"type":"purchase"}', "type: must be one of console, game, redirect, watch, search"],
    ['{"id":1}', "type: must be one of"],
  ])("refuses %s", (text, expected) => {
    expect(reason(text)).toContain(expected);
  });

  it("refuses an overlong line before parsing it", () => {
    expect(reason(`{"type":"console","name":"${"x".repeat(MAX_LINE_LENGTH)}"}`)).toContain("longer than");
  });

  it("names up to three fields at fault", () => {
    expect(reason({ type: "redirect" })).toBe(
      "game_id: is required; user_id: must be a string of 1 to 128 characters or a non-negative integer; occurred_at: is required",
    );
  });
});

describe("event_id", () => {
  it("is kept as text when a line carries one, and refused when empty", () => {
    expect(record({ ...search, event_id: "mp-81" })).toMatchObject({ eventId: "mp-81" });
    expect(record({ ...search, event_id: 9007 })).toMatchObject({ eventId: "9007" });
    expect(record(search)).toMatchObject({ eventId: null });
    expect(reason({ ...search, event_id: "" })).toMatch(/^event_id: /);
  });
});
