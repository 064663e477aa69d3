import type { ListQuerySchema } from "@gmi/contract";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Listed } from "../data/catalog.js";
import type { SnapshotRef } from "../data/snapshots.js";
import type { PageRequest } from "../domain/pagination/page.js";
import { cursorDate, type Placed, positionOf, scopeOf } from "../reads/lists.js";
import type { ReadCache } from "../reads/read-cache.js";
import { cachedSnapshot } from "../reads/snapshot.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

/** Which ranked list of a snapshot: its route (cursors are bound to it), its kind and sort, and its read. */
export type SnapshotList<Row> = {
  route: string;
  kind: "liquidity" | "search";
  sort: string;
  read: (snapshot: SnapshotRef, scope: number, request: PageRequest) => Promise<Listed<Placed<Row>>>;
};

/**
 * One page of a ranked snapshot list (the liquidity leaderboard, the search lists), the part their
 * endpoints share: the snapshot of the period and date (a cursor keeps the date it started on), the
 * page read through the read cache, and `{data, meta: {period, period_date, pagination}, links}`.
 */
export const snapshotListPage = async <Row>(
  deps: RouteDeps,
  cache: ReadCache,
  request: FastifyRequest,
  query: z.infer<typeof ListQuerySchema>,
  list: SnapshotList<Row>,
) => {
  const page = paginated(deps, request, query, {
    route: list.route,
    scope: { period: query.period, date: query.date, console_id: query.console_id, sort: list.sort },
  });
  const snapshot = await cachedSnapshot(
    cache,
    deps.sql,
    deps.clock,
    query.period,
    query.date ?? cursorDate(page.pageRequest),
  );
  const scope = scopeOf(query.console_id);
  // A snapshot never changes: its pages are kept until evicted.
  const listed = await cache.get(
    `${list.kind}|${snapshot.id}|${scope}|${list.sort}|${JSON.stringify(page.pageRequest)}`,
    null,
    () => list.read(snapshot, scope, page.pageRequest),
  );
  const body = page.respond(
    listed,
    (placed) => positionOf(snapshot, placed.place),
    (placed) => placed.row,
  );
  return { ...body, meta: { period: snapshot.period, period_date: snapshot.date, ...body.meta } };
};
