import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { momentum } from "../domain/analytics/momentum.js";
import { addDays, dayStart } from "../domain/analytics/windows.js";
import type {
  GameRecord,
  ImportRecord,
  RedirectRecord,
  SearchRecord,
  WatchRecord,
} from "../domain/import/parse-line.js";
import { parseLine } from "../domain/import/parse-line.js";
import { generateCatalog } from "./catalog.js";
import { DEMO_SCALES, demoEventCount, generateDemo } from "./generate.js";

const END = "2026-11-20";
const SEED = 11;
const EVENTS = 30_000;

const digest = (options: Parameters<typeof generateDemo>[0]) => {
  const hash = createHash("sha256");
  for (const line of generateDemo(options)) hash.update(`${JSON.stringify(line)}\n`);
  return hash.digest("hex");
};

// One parse of the whole demo, shared by the checks below.
const records: ImportRecord[] = [];
let rejected = 0;
let lineNo = 0;
for (const line of generateDemo({ endDate: END, seed: SEED, scale: EVENTS })) {
  lineNo += 1;
  const parsed = parseLine(JSON.stringify(line), lineNo);
  if (parsed.kind === "record") records.push(parsed.record);
  else rejected += 1;
}
const of = <T extends ImportRecord["type"]>(type: T) =>
  records.filter((r): r is Extract<ImportRecord, { type: T }> => r.type === type);
const redirects: RedirectRecord[] = of("redirect");
const searches: SearchRecord[] = of("search");
const watches: WatchRecord[] = of("watch");
const share = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length / items.length;

describe("determinism", () => {
  it("gives the same lines for the same seed and different ones for another seed", () => {
    const a = digest({ endDate: END, seed: 5, scale: 5_000 });
    expect(digest({ endDate: END, seed: 5, scale: 5_000 })).toBe(a);
    expect(digest({ endDate: END, seed: 6, scale: 5_000 })).not.toBe(a);
  });

  it("names its scales", () => {
    expect(demoEventCount("small")).toBe(50_000);
    expect(demoEventCount("large")).toBe(DEMO_SCALES.large);
    expect(() => demoEventCount(-1)).toThrow(RangeError);
  });
});

/** A game's lines: its prices over the days, oldest first; the last carries its current prices. */
const gameLines = new Map<number, GameRecord[]>();
for (const line of of("game")) gameLines.set(line.id, [...(gameLines.get(line.id) ?? []), line]);

describe("catalog", () => {
  const consoles = of("console");
  const games = [...gameLines.values()].map((lines) => lines.at(-1) as GameRecord);

  it("has at least 15 real consoles and 1,500 titles, every line valid", () => {
    expect(rejected).toBe(0);
    expect(consoles.length).toBeGreaterThanOrEqual(15);
    expect(games.length).toBeGreaterThanOrEqual(1_500);
    expect(consoles.map((c) => c.slug)).toEqual(
      expect.arrayContaining(["nes", "snes", "n64", "genesis", "ps1"]),
    );
  });

  it("has unique ids and unique slugs within a console", () => {
    expect(new Set(games.map((g) => g.id)).size).toBe(games.length);
    expect(new Set(games.map((g) => `${g.consoleId}/${g.marketplaceGameName}`)).size).toBe(games.length);
  });

  it("carries the famous titles with plausible prices", () => {
    const chrono = games.find((g) => g.displayGameName === "Chrono Trigger" && g.consoleId === 2);
    expect(chrono?.marketplaceGameName).toBe("chrono-trigger");
    expect(Number(chrono?.prices.loose)).toBeGreaterThan(100);
    expect(Number(chrono?.prices.complete)).toBeGreaterThan(Number(chrono?.prices.loose));
  });

  it("has some disabled games, some without a complete price and some without any price", () => {
    expect(games.some((g) => !g.enabled)).toBe(true);
    expect(games.some((g) => g.prices.complete === null && g.prices.loose !== null)).toBe(true);
    expect(
      games.some((g) => g.prices.loose === null && g.prices.complete === null && g.prices.new === null),
    ).toBe(true);
  });
});

describe("prices over the 90 days", () => {
  const histories = [...gameLines.values()];
  const changes = (lines: GameRecord[]) => lines.length - 1;

  it("starts every game on the first day and dates each change on a later day before the end date", () => {
    const start = `${addDays(END, -89)}T00:00:00.000Z`;
    for (const lines of histories) {
      expect(lines[0]?.observedAt).toBe(start);
      const times = lines.map((l) => l.observedAt ?? "");
      expect(times.every((t, i) => i === 0 || ((times[i - 1] ?? "") < t && t < `${END}T00:00:00.000Z`))).toBe(
        true,
      );
    }
  });

  it("ends on the catalog's prices, so scores do not depend on the history", () => {
    const catalog = new Map(generateCatalog(SEED).games.map((g) => [g.line.id, g.line.prices]));
    for (const lines of histories) {
      const last = lines.at(-1);
      expect(last?.prices).toEqual(catalog.get(last?.id ?? 0));
    }
  });

  it("moves most titles rarely, a few steadily, some within the last week", () => {
    expect(share(histories, (lines) => changes(lines) <= 1)).toBeGreaterThan(0.6);
    const trending = share(histories, (lines) => changes(lines) >= 6);
    expect(trending).toBeGreaterThan(0.02);
    expect(trending).toBeLessThan(0.15);
    const lastWeek = `${addDays(END, -7)}T`;
    expect(
      histories.some((lines) => changes(lines) >= 6 && (lines.at(-1)?.observedAt ?? "") >= lastWeek),
    ).toBe(true);
  });

  it("moves prices by plausible steps: under 15% at a time", () => {
    for (const lines of histories) {
      for (let i = 1; i < lines.length; i += 1) {
        const [before, after] = [Number(lines[i - 1]?.prices.loose), Number(lines[i]?.prices.loose)];
        if (before >= 20) expect(Math.abs(after / before - 1)).toBeLessThan(0.15);
      }
    }
  });
});

describe("events", () => {
  it("yields exactly the asked number, inside the 90 days, in time order", () => {
    expect(redirects.length + searches.length + watches.length).toBe(EVENTS);
    const times = [...redirects.map((r) => r.occurredAt), ...searches.map((s) => s.occurredAt)];
    expect(times.every((t) => t >= `${addDays(END, -89)}T00:00:00.000Z` && t < `${addDays(END, 1)}T`)).toBe(
      true,
    );
    const inOrder = records.flatMap((r) =>
      r.type === "redirect" || r.type === "search" ? [r.occurredAt] : r.type === "watch" ? [r.createdAt] : [],
    );
    expect(inOrder.every((t, i) => i === 0 || (inOrder[i - 1] ?? "") <= t)).toBe(true);
  });

  it("is about 70% mobile", () => {
    expect(share(searches, (s) => s.device === "mobile")).toBeGreaterThan(0.64);
    expect(share(searches, (s) => s.device === "mobile")).toBeLessThan(0.76);
  });

  it("has zero-result searches, for absent titles and misspellings", () => {
    const zero = searches.filter((s) => s.resultCount === 0);
    expect(zero.length / searches.length).toBeGreaterThan(0.03);
    expect(zero.some((s) => s.query.startsWith("mother 3"))).toBe(true);
    expect(zero.some((s) => s.gameId === null && !s.query.startsWith("mother 3"))).toBe(true);
  });

  it("has a realistic condition mix: loose > cib > new", () => {
    const count = (c: string) => redirects.filter((r) => r.condition === c).length;
    expect(count("loose")).toBeGreaterThan(count("cib"));
    expect(count("cib")).toBeGreaterThan(count("new"));
    expect(searches.some((s) => s.condition === "any")).toBe(true);
  });

  it("removes some alerts, never after the last day", () => {
    const removed = watches.filter((w) => w.removedAt !== null);
    expect(removed.length / watches.length).toBeGreaterThan(0.1);
    expect(
      removed.every((w) => (w.removedAt ?? "") < `${addDays(END, 1)}T` && (w.removedAt ?? "") >= w.createdAt),
    ).toBe(true);
  });

  it("browses more on Saturdays than on Mondays", () => {
    const byWeekday = [0, 0, 0, 0, 0, 0, 0];
    for (const s of searches) {
      const weekday = dayStart(s.day).getUTCDay();
      byWeekday[weekday] = (byWeekday[weekday] ?? 0) + 1;
    }
    expect(byWeekday[6] ?? 0).toBeGreaterThan((byWeekday[1] ?? 0) * 1.2);
  });

  it("makes rising titles read as rising and cooling ones as cooling at the end date", () => {
    const trends = new Map(generateCatalog(SEED).games.map((g) => [g.line.id, g.trend]));
    const counts = new Map<number, { recent7d: number; last30d: number }>();
    for (const r of redirects) {
      const c = counts.get(r.gameId) ?? { recent7d: 0, last30d: 0 };
      if (r.day >= addDays(END, -6)) c.recent7d += 1;
      if (r.day >= addDays(END, -29)) c.last30d += 1;
      counts.set(r.gameId, c);
    }
    const labels = (trend: string) =>
      [...counts]
        .filter(([id, c]) => trends.get(id) === trend && c.last30d >= 30)
        .map(([, c]) => momentum(c).label);
    const rising = labels("rising");
    const cooling = labels("cooling");
    expect(rising.length).toBeGreaterThan(0);
    expect(cooling.length).toBeGreaterThan(0);
    expect(share(rising, (l) => l === "rising")).toBeGreaterThan(0.6);
    expect(share(cooling, (l) => l === "cooling")).toBeGreaterThan(0.6);
  });
});
