import type { contract } from "@gmi/contract";
import { rankedListBody, searchList, trendingList } from "./lists.js";
import { gameConditionsMeta, snapshotMeta } from "./meta.js";
import * as profiles from "./profiles.js";
import type { Read } from "./read.js";
import { atSnapshot } from "./snapshot.js";

type Routes = typeof contract.demandIntent;

/** `GET /demand-intent/searches`: the search list in the asked sort. */
export const searches: Read<Routes["searches"]> = (reads, { query }, caller) =>
  rankedListBody(reads, caller, query, searchList("demandIntent.searches", query.sort));

/** `GET /demand-intent/searches/trending`: the search list by momentum, queries without one left out. */
export const trending: Read<Routes["trending"]> = (reads, { query }, caller) =>
  rankedListBody(reads, caller, query, trendingList);

/** `GET /demand-intent/searches/unmet`: the search list by unmet demand. */
export const unmet: Read<Routes["unmet"]> = (reads, { query }, caller) =>
  rankedListBody(reads, caller, query, searchList("demandIntent.unmet", "unmet"));

/** `GET /demand-intent/searches/conditions`: market-wide demand by condition. */
export const conditions: Read<Routes["conditions"]> = async (reads, { query }) => {
  const { snapshot, rows } = await atSnapshot(reads, query.period, query.date, (asked) =>
    profiles.marketConditions(reads.sql, asked),
  );
  return { data: rows, meta: snapshotMeta(snapshot) };
};

/** `GET /demand-intent/games/:game_id/conditions`: one game's demand by condition. */
export const gameConditions: Read<Routes["gameConditions"]> = async (reads, { params, query }) => {
  const { snapshot, game, rows } = await atSnapshot(reads, query.period, query.date, (asked) =>
    profiles.gameConditions(reads.sql, asked, params.game_id),
  );
  return { data: rows, meta: gameConditionsMeta(snapshot, game.identity) };
};
