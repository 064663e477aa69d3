import { worldFromEvents } from "@gmi/rules/world/from-events";
import type { MockSnapshot, MockWorld } from "@gmi/rules/world/types";
import { beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../src/clock.js";
import { exportMockWorld } from "../src/data/mock-world.js";
import { generateDemo } from "../src/demo/generate.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { todayOf } from "../src/domain/analytics/windows.js";
import { importLines } from "../src/jobs/import.js";
import { rollupDates } from "../src/rollup/rollup-dates.js";
import { useTestDatabase } from "./helpers/setup.js";

/**
 * The figures the mocks compute from events equal the server's for the same events: the demo
 * generator's NDJSON imported and rolled up by the real server, exported, deep-equals
 * `worldFromEvents` of the same lines.
 */
const END = "2026-11-20";
const DATES = ["2026-11-18", "2026-11-19", "2026-11-20"];
const db = useTestDatabase({ catalog: false });
let lines: string[];
let served: MockWorld;

beforeAll(async () => {
  lines = [...generateDemo({ endDate: END, seed: 11, scale: 6_000, days: 40 })].map((r) => JSON.stringify(r));
  await importLines(db(), lines);
  await rollupDates(
    db(),
    { end: END, days: DATES.length, force: true, today: todayOf(systemClock) },
    DEFAULT_SCORING,
  );
  served = await exportMockWorld(db().pool, { dates: DATES, scoring: DEFAULT_SCORING });
}, 180_000);

/** Rows in one order (the world's arrays are sets): by scope and key. */
const canonical = (s: MockSnapshot) => ({
  period: s.period,
  date: s.date,
  dayHasEvents: s.dayHasEvents,
  liquidity: [...s.liquidity].sort((a, b) => a.scopeConsoleId - b.scopeConsoleId || a.gameId - b.gameId),
  searches: [...s.searches].sort(
    (a, b) => a.scopeConsoleId - b.scopeConsoleId || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0),
  ),
  conditions: [...s.conditions].sort((a, b) => a.gameId - b.gameId || a.rank - b.rank),
});
const key = (s: MockSnapshot) => `${s.period} ${s.date}`;

describe("worldFromEvents", () => {
  it("computes the server's snapshots from the same NDJSON", () => {
    const computed = worldFromEvents(lines, { dates: DATES, scoring: DEFAULT_SCORING });
    expect(computed.snapshots.map(key).sort()).toEqual(served.snapshots.map(key).sort());
    for (const snapshot of served.snapshots) {
      // Something to compare: every kind of row, in the all-consoles scope and the consoles'.
      expect(new Set(snapshot.liquidity.map((r) => r.scopeConsoleId)).size).toBeGreaterThan(1);
      expect(new Set(snapshot.searches.map((r) => r.scopeConsoleId)).size).toBeGreaterThan(1);
      expect(snapshot.conditions.length).toBeGreaterThan(4);
      const mine = computed.snapshots.find((s) => key(s) === key(snapshot));
      expect(mine && canonical(mine)).toEqual(canonical(snapshot));
    }
  });

  it("and the server's catalog", () => {
    const computed = worldFromEvents(lines, { dates: DATES, scoring: DEFAULT_SCORING });
    expect(computed.catalog.games).toEqual(served.catalog.games);
    expect(computed.catalog.consoles).toEqual(served.catalog.consoles);
    expect(computed.catalog.prices).toEqual(served.catalog.prices);
  });
});
