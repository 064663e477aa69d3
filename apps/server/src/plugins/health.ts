import type { StandbyReport } from "../data/standbys.js";
import { ApiError } from "../errors.js";
import { globalPlugin } from "./plugin.js";

export type ReadinessCheck = {
  name: string;
  check: () => Promise<unknown>;
  /**
   * false: the service works without it, degraded (Redis: rate limits per replica), so a failure
   * is reported in the body of a 200, not a 503 that would take every replica out of rotation.
   */
  required?: boolean;
};

/** A check that has not answered within this counts as failed: /readyz itself never hangs. */
const CHECK_TIMEOUT_MS = 2_000;

const bounded = (check: () => Promise<unknown>) =>
  Promise.race([
    check(),
    new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS).unref()),
  ]);

/**
 * /healthz: the process answers (liveness; no dependency checked, so a database outage does not
 * get the process restarted). /readyz: every required dependency answers (readiness), else 503;
 * an optional one that fails is named in `degraded`. With read standbys, each one's state and lag
 * as last checked (data/standbys.ts): one that is down or lagging is named in `degraded` too, since
 * its reads go to the primary.
 */
export const healthPlugin = globalPlugin<{
  checks: ReadinessCheck[];
  standbys?: () => Promise<StandbyReport[]>;
}>("health", async (app, { checks, standbys }) => {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (request) => {
    const results = await Promise.allSettled(checks.map((c) => bounded(c.check)));
    const failing = checks.filter((_, i) => results[i]?.status === "rejected");
    const failed = failing.filter((c) => c.required !== false).map((c) => c.name);
    const degraded = failing.filter((c) => c.required === false).map((c) => c.name);
    const standbyList = standbys ? { standbys: await standbys() } : {};
    for (const standby of standbyList.standbys ?? [])
      if (standby.state === "down" || standby.state === "lagging") degraded.push(`standby ${standby.name}`);
    if (failed.length > 0) {
      request.log.warn({ failed, degraded }, "not ready");
      throw new ApiError("service_unavailable", `Not ready: ${failed.join(", ")} unreachable`, undefined, {
        "retry-after": 5,
      });
    }
    if (degraded.length > 0) return { status: "degraded", degraded, ...standbyList };
    return { status: "ready", ...standbyList };
  });
});
