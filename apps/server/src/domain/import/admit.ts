import type { IsoDay } from "../analytics/windows.js";
import type { ImportRecord } from "./parse-line.js";

/** What an importer knows beyond one line: the server's today (UTC) and the games of the catalog. */
export type Admission = { today: IsoDay; isKnownGame(id: number): boolean };

const future = (field: string, instant: string, today: IsoDay, what = "events") =>
  `${field}: ${instant.slice(0, 10)} is after today (${today}, UTC); future-dated ${what} are refused`;

/**
 * Why a valid line still cannot be loaded, or null: an event or a price observation dated after
 * the server's today (it would move every default date to an empty future), or an event of a game
 * the catalog does not have, neither in the database nor on an earlier line of the file (it would
 * count nowhere).
 */
export const refusal = (record: ImportRecord, admission: Admission): string | null => {
  switch (record.type) {
    case "console":
      return null;
    case "game":
      // A price dated ahead would stay the newest, so no later import could change it.
      return record.observedAt !== null && record.observedAt.slice(0, 10) > admission.today
        ? future("observed_at", record.observedAt, admission.today, "prices")
        : null;
    case "redirect":
      if (record.day > admission.today) return future("occurred_at", record.occurredAt, admission.today);
      return admission.isKnownGame(record.gameId) ? null : unknownGame(record.gameId);
    case "watch":
      if (record.createdAt.slice(0, 10) > admission.today)
        return future("created_at", record.createdAt, admission.today);
      if (record.removedAt !== null && record.removedAt.slice(0, 10) > admission.today)
        return future("removed_at", record.removedAt, admission.today);
      return admission.isKnownGame(record.gameId) ? null : unknownGame(record.gameId);
    case "search":
      if (record.day > admission.today) return future("occurred_at", record.occurredAt, admission.today);
      return record.gameId === null || admission.isKnownGame(record.gameId)
        ? null
        : unknownGame(record.gameId);
  }
};

const unknownGame = (id: number) =>
  `game_id: no game ${id} in the catalog (import its game line first, or earlier in the same file)`;
