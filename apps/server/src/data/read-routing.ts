import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import type { Sql } from "./sql.js";
import type { Standby, Standbys } from "./standbys.js";

/** Where the statements of one read go: a standby, or (null) the primary. */
type Route = { standby: Standby | null; usedStandby: boolean };

export type ReadRouting = {
  /** Runs each statement where the read it belongs to was sent (`oneServer`), else on the primary. */
  sql: Sql;
  /**
   * Runs a read (every statement of one answer) on one server: a standby that serves the data the
   * caches hold, else the primary. A read that fails on a standby is read again on the primary: a
   * date, a game or a page a standby may not have yet is never answered 404 or 422 from it.
   */
  oneServer<T>(read: () => Promise<T>): Promise<T>;
};

/** Without standbys: every statement on the primary, nothing to route. */
export const primaryOnly = (primary: Sql): ReadRouting => ({ sql: primary, oneServer: (read) => read() });

/**
 * Snapshot, catalog and history reads sent to the standbys of DATABASE_READ_URL (keys, quotas,
 * idempotency and writes use the primary's own `Sql`, never this one). A read is given a standby
 * when it begins; each of its statements then checks that the standby still holds the data
 * fingerprint the caches are keyed on (a rollup may land while the read runs: what a cache keeps
 * under the new fingerprint must never be read from a standby that has not replayed it), and goes to
 * the primary from then on if not, or if the standby fails. The route of a read is carried through
 * its awaits by AsyncLocalStorage: the reads and the caches under them take one `Sql` and stay as
 * they are.
 */
export const readRouting = (
  primary: Sql,
  standbys: Standbys,
  /** The primary's data fingerprint as the caches know it (caches/data-version.ts). */
  fingerprint: () => Promise<string>,
): ReadRouting => {
  const routes = new AsyncLocalStorage<Route>();
  const onPrimary = (route: Route | undefined, args: unknown[]) => {
    if (route) route.standby = null;
    return (primary.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args);
  };
  const query = async (...args: unknown[]) => {
    const route = routes.getStore();
    const standby = route?.standby;
    if (!route || !standby) return onPrimary(route, args);
    if (!standbys.serves(standby, await fingerprint())) return onPrimary(route, args);
    route.usedStandby = true;
    standbys.ran(standby);
    try {
      return await (standby.sql.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args);
    } catch (error) {
      // A read asked again elsewhere changes nothing: unreachable, or cancelled by its replay.
      standbys.failed(standby, error);
      return onPrimary(route, args);
    }
  };
  return {
    sql: { query } as unknown as Sql,
    async oneServer(read) {
      const standby = standbys.pick(await fingerprint());
      if (!standby) return routes.run({ standby: null, usedStandby: false }, read);
      const route: Route = { standby, usedStandby: false };
      try {
        return await routes.run(route, read);
      } catch (error) {
        if (!route.usedStandby) throw error;
        return routes.run({ standby: null, usedStandby: false }, read);
      }
    },
  };
};
