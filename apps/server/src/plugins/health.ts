import { ApiError } from "../errors.js";
import { globalPlugin } from "./plugin.js";

export type ReadinessCheck = { name: string; check: () => Promise<unknown> };

/**
 * /healthz: the process answers (liveness; no dependency checked, so a database outage does not
 * get the process restarted). /readyz: every dependency answers (readiness), else 503.
 */
export const healthPlugin = globalPlugin<{ checks: ReadinessCheck[] }>("health", async (app, { checks }) => {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (request) => {
    const results = await Promise.allSettled(checks.map((c) => c.check()));
    const failed = checks.filter((_, i) => results[i]?.status === "rejected").map((c) => c.name);
    if (failed.length > 0) {
      request.log.warn({ failed }, "not ready");
      throw new ApiError("service_unavailable", `Not ready: ${failed.join(", ")} unreachable`);
    }
    return { status: "ready" };
  });
});
