import type { contract } from "@gmi/contract";
import { gameHistoryBody } from "./history.js";
import { leaderboard, rankedListBody } from "./lists.js";
import { snapshotMeta } from "./meta.js";
import { gameConditions, listingRecommendation, profileOf } from "./profiles.js";
import type { Read } from "./read.js";
import { atSnapshot } from "./snapshot.js";

type Routes = typeof contract.intelligence;

/** `GET /intelligence`: the liquidity leaderboard. */
export const list: Read<Routes["list"]> = (reads, { query }, caller) =>
  rankedListBody(reads, caller, query, leaderboard(query.sort));

/** `GET /intelligence/:id`: one game's liquidity profile. */
export const get: Read<Routes["get"]> = async (reads, { params, query }) => {
  const { snapshot, profile } = await atSnapshot(reads, query.period, query.date, (asked) =>
    profileOf(reads.sql, asked, params.id, reads.scoring),
  );
  return { data: profile, meta: snapshotMeta(snapshot) };
};

/** `GET /intelligence/:id/conditions`: which condition to list the game in. */
export const conditions: Read<Routes["conditions"]> = async (reads, { params, query }) => {
  const { snapshot, game, rows } = await atSnapshot(reads, query.period, query.date, (asked) =>
    gameConditions(reads.sql, asked, params.id),
  );
  return { data: listingRecommendation(game, rows), meta: snapshotMeta(snapshot) };
};

/** `GET /intelligence/:id/history`: the game's daily points over a date range. */
export const history: Read<Routes["history"]> = (reads, { params, query }) =>
  gameHistoryBody(reads, params.id, query);
