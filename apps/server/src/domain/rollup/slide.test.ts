import { PERIOD_DAYS, PERIODS, type Period } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../demo/prng.js";
import {
  cellEffect,
  isFirstInWindow,
  LONGEST_WINDOW_DAYS,
  NO_RECENT_GAP,
  returningCells,
  SLID_PERIODS,
  SLIDE_DAYS,
  STRETCHES,
  stretchesOf,
  stretchOf,
  windowStart,
} from "./slide.js";

describe("window lengths come from the contract's PERIOD_DAYS", () => {
  it("names the longest window, the 'no recent day' gap and the slid periods", () => {
    expect(LONGEST_WINDOW_DAYS).toBe(30);
    expect(NO_RECENT_GAP).toBe(31);
    expect(SLID_PERIODS).toEqual(["7d", "30d"]);
    expect(PERIODS.map(windowStart)).toEqual([0, -6, -29]);
    expect(SLIDE_DAYS).toEqual([0, -7, -30]);
  });

  it("splits the longest window into stretches the periods share", () => {
    expect(STRETCHES).toEqual([
      { period: "day", first: 0, last: 0 },
      { period: "7d", first: -6, last: -1 },
      { period: "30d", first: -29, last: -7 },
    ]);
    expect(stretchesOf("7d")).toEqual([0, 1]);
    expect(stretchesOf("30d")).toEqual([0, 1, 2]);
    expect([0, -1, -6, -7, -29, -30].map(stretchOf)).toEqual([0, 1, 1, 2, 2, -1]);
  });

  it("lists the cells returning to the leaving day: on day d, the gap back to it", () => {
    expect(returningCells("7d")).toEqual([
      { offset: -6, gap: 1 },
      { offset: -5, gap: 2 },
      { offset: -4, gap: 3 },
      { offset: -3, gap: 4 },
      { offset: -2, gap: 5 },
      { offset: -1, gap: 6 },
    ]);
    expect(returningCells("30d")).toHaveLength(29);
    expect(returningCells("day")).toEqual([]);
  });

  it("gives each cell its effect on a slid window", () => {
    expect(cellEffect("7d", 0, 7)).toEqual({ counts: 1, users: 1 });
    expect(cellEffect("7d", 0, 6)).toEqual({ counts: 1, users: 0 });
    expect(cellEffect("30d", 0, 29)).toEqual({ counts: 1, users: 0 });
    expect(cellEffect("7d", -7, 3)).toEqual({ counts: -1, users: -1 });
    expect(cellEffect("7d", -2, 5)).toEqual({ counts: 0, users: 1 });
    expect(cellEffect("30d", -2, 5)).toEqual({ counts: 0, users: 0 });
    expect(cellEffect("30d", -7, 23)).toEqual({ counts: 0, users: 1 });
    expect(cellEffect("day", 0, 1)).toEqual({ counts: 1, users: 1 });
    expect(cellEffect("day", -1, 6)).toEqual({ counts: 0, users: 0 });
  });
});

/**
 * The math against brute force: random activity of (key, user) pairs over 80 days, made into cells
 * as the cell rebuild does (per day and gap: pairs and events). For every date D and period, the
 * exact events and distinct users of the window must equal (a) the cells of the window counted by
 * the first-in-window rule, and (b) the exact figures of D-1's window plus every cell's effect.
 */
describe("slide and full read agree with brute force", () => {
  const DAYS = 80;
  const random = mulberry32(20);
  // activity[pair][day] = events of that pair on that day
  const activity = Array.from({ length: 60 }, () =>
    Array.from({ length: DAYS }, () => (random() < 0.15 ? 1 + Math.floor(random() * 3) : 0)),
  );
  type Cell = { day: number; gap: number; users: number; events: number };
  const cells: Cell[] = [];
  for (let day = 0; day < DAYS; day++) {
    const byGap = new Map<number, Cell>();
    for (const days of activity) {
      if (!days[day]) continue;
      let previous = -1;
      for (let d = day - 1; d >= 0 && d >= day - LONGEST_WINDOW_DAYS; d--)
        if (days[d]) {
          previous = d;
          break;
        }
      const gap = previous < 0 ? NO_RECENT_GAP : day - previous;
      const cell = byGap.get(gap) ?? { day, gap, users: 0, events: 0 };
      cell.users += 1;
      cell.events += days[day] as number;
      byGap.set(gap, cell);
    }
    cells.push(...byGap.values());
  }
  const exact = (period: Period, date: number) => {
    const first = date + windowStart(period);
    let events = 0;
    let users = 0;
    for (const days of activity) {
      const inWindow = days.slice(Math.max(first, 0), date + 1);
      events += inWindow.reduce((a, b) => a + b, 0);
      if (inWindow.some((n) => n > 0)) users += 1;
    }
    return { events, users };
  };

  // Dates from LONGEST_WINDOW_DAYS on: the first day of the data is not a window edge.
  const dates = Array.from({ length: DAYS - LONGEST_WINDOW_DAYS - 1 }, (_, i) => i + LONGEST_WINDOW_DAYS + 1);

  it.each(PERIODS)("%s: the full read of the window's cells", (period) => {
    for (const date of dates) {
      let events = 0;
      let users = 0;
      for (const cell of cells) {
        const offset = cell.day - date;
        if (offset > 0 || offset < windowStart(period)) continue;
        events += cell.events;
        if (isFirstInWindow(period, offset, cell.gap)) users += cell.users;
      }
      expect({ date, events, users }).toEqual({ date, ...exact(period, date) });
    }
  });

  it.each(PERIODS)("%s: D-1's window slid by the cells' effects", (period) => {
    for (const date of dates) {
      const before = PERIOD_DAYS[period] === 1 ? { events: 0, users: 0 } : exact(period, date - 1);
      let { events, users } = before;
      for (const cell of cells) {
        const offset = cell.day - date;
        if (offset > 0 || offset < -LONGEST_WINDOW_DAYS) continue;
        const effect = cellEffect(period, offset, cell.gap);
        events += effect.counts * cell.events;
        users += effect.users * cell.users;
      }
      expect({ date, events, users }).toEqual({ date, ...exact(period, date) });
    }
  });
});
