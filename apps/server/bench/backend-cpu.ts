import { readFileSync } from "node:fs";
import type { Sql } from "../src/data/sql.js";

/**
 * CPU time (ms, user + system) PostgreSQL backend processes have used so far, read from /proc:
 * the bench's server is local. On a shared machine wall times swing with the load; what the server
 * spent on a load does not.
 */
export const backendCpuMs = (pids: readonly number[]): number =>
  pids.reduce((sum, pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return sum;
    }
  }, 0);

/** The backends connected to the current database. */
export const databaseBackends = async (sql: Sql): Promise<number[]> => {
  const { rows } = await sql.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()",
  );
  return rows.map((r) => r.pid);
};
