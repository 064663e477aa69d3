import type { contract } from "@gmi/contract";
import { gameHistoryBody } from "./history.js";
import { leaderboard, rankedListBody } from "./lists.js";
import { snapshotMeta } from "./meta.js";
import { listingRecommendation, profileOf } from "./profiles.js";
import type { Read } from "./read.js";
import { snapshotFor } from "./snapshot.js";

type Routes = typeof contract.intelligence;

/** `GET /intelligence`: the liquidity leaderboard. */
export const list: Read<Routes["list"]> = (reads, { query }, caller) =>
  rankedListBody(reads, caller, query, leaderboard(query.sort));

/** `GET /intelligence/:id`: one game's liquidity profile. */
export const get: Read<Routes["get"]> = async (reads, { params, query }) => {
  const snapshot = await snapshotFor(reads, query.period, query.date);
  const profile = await profileOf(reads.sql, snapshot, params.id, reads.scoring);
  return { data: profile, meta: snapshotMeta(snapshot) };
};

/** `GET /intelligence/:id/conditions`: which condition to list the game in. */
export const conditions: Read<Routes["conditions"]> = async (reads, { params, query }) => {
  const snapshot = await snapshotFor(reads, query.period, query.date);
  const recommendation = await listingRecommendation(reads.sql, snapshot, params.id);
  return { data: recommendation, meta: snapshotMeta(snapshot) };
};

/** `GET /intelligence/:id/history`: the game's daily points over a date range. */
export const history: Read<Routes["history"]> = (reads, { params, query }) =>
  gameHistoryBody(reads, params.id, query);
