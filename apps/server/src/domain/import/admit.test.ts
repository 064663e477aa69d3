import { describe, expect, it } from "vitest";
import { refusal } from "./admit.js";
import type { GameRecord, SearchRecord, WatchRecord } from "./parse-line.js";

const admission = { today: "2026-11-21", isKnownGame: (id: number) => id === 101 };
const search: SearchRecord = {
  type: "search",
  eventId: null,
  rawQuery: "chrono",
  query: "chrono",
  userId: "u",
  occurredAt: "2026-11-21T23:59:59.999Z",
  day: "2026-11-21",
  source: "site",
  device: "mobile",
  resultCount: 3,
  condition: null,
  gameId: null,
  consoleId: null,
};
const watch: WatchRecord = {
  type: "watch",
  eventId: null,
  gameId: 101,
  userId: "u",
  createdAt: "2026-11-20T00:00:00.000Z",
  removedAt: null,
  condition: null,
};

describe("admission of valid lines", () => {
  it("takes events up to the end of today (UTC) and refuses later ones", () => {
    expect(refusal(search, admission)).toBeNull();
    expect(refusal({ ...search, occurredAt: "2026-11-22T00:00:00.000Z", day: "2026-11-22" }, admission)).toBe(
      "occurred_at: 2026-11-22 is after today (2026-11-21, UTC); future-dated events are refused",
    );
    expect(refusal({ ...watch, removedAt: "2026-12-01T00:00:00.000Z" }, admission)).toMatch(
      /^removed_at: 2026-12-01/,
    );
  });

  it("takes prices observed up to the end of today (UTC) or undated, and refuses later ones", () => {
    const game: GameRecord = {
      type: "game",
      id: 7,
      consoleId: 1,
      displayGameName: "X",
      marketplaceGameName: "x",
      enabled: true,
      prices: { loose: "1.00", complete: null, new: null },
      observedAt: "2026-11-21T23:59:59.999Z",
    };
    expect(refusal(game, admission)).toBeNull();
    expect(refusal({ ...game, observedAt: null }, admission)).toBeNull();
    expect(refusal({ ...game, observedAt: "2026-11-22T00:00:00.000Z" }, admission)).toBe(
      "observed_at: 2026-11-22 is after today (2026-11-21, UTC); future-dated prices are refused",
    );
  });

  it("refuses events of games the catalog does not have; a search without a game is fine", () => {
    expect(refusal({ ...watch, gameId: 5 }, admission)).toMatch(/^game_id: no game 5 in the catalog/);
    expect(refusal({ ...search, gameId: 5 }, admission)).toMatch(/^game_id: no game 5/);
    expect(refusal({ ...search, gameId: 101 }, admission)).toBeNull();
  });
});
