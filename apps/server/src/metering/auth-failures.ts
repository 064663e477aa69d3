import type { BlockedClients } from "../caches/blocked-clients.js";
import type { Clock } from "../clock.js";
import { authFailureWindow } from "../domain/limits/auth-failures.js";
import type { ApiError } from "../errors.js";
import { authFailureRefusal } from "./refusals.js";
import type { LimiterStore } from "./window-store.js";

export type AuthFailureLimiter = {
  /** The 429 of a client this replica knows to be past the limit, before any key lookup; else null. */
  refusalOf(client: string): ApiError | null;
  /** Counts one failed authentication (a 401) of `client`: the 429 to answer instead, past the limit. */
  record(client: string): Promise<ApiError | null>;
};

export type AuthFailureDeps = {
  /** The rate-window store (shared through Redis, failing open per replica: failover-windows.ts). */
  limiter: LimiterStore;
  clock: Clock;
  blocked: BlockedClients;
  /** 401s a client may get in a UTC minute; the next failures are 429s until the minute ends. */
  perMinute: number;
  /** Told once per client and window when this replica starts refusing it (the log line). */
  onBlocked(client: string, until: number): void;
};

/**
 * The failed-authentication limit per client (docs/security.md, "Abuse limits"). Each 401 is one
 * unit of the client's minute window in the rate-window store, so the count is shared by every
 * replica through Redis, and kept per replica while Redis is down, exactly as the plans' windows.
 * The failure past the limit is answered 429 instead of 401, and from then until the minute ends
 * this replica refuses the client from memory (`blocked`), before any key lookup and without asking
 * the store again. Another replica learns of the block at the client's next failure there.
 */
export const authFailureLimiter = (deps: AuthFailureDeps): AuthFailureLimiter => ({
  refusalOf(client) {
    const now = deps.clock.now();
    const until = deps.blocked.until(client, now);
    return until === null ? null : authFailureRefusal(deps.perMinute, until, now);
  },
  async record(client) {
    const now = deps.clock.now();
    const window = authFailureWindow(client, deps.perMinute, now);
    const counted = await deps.limiter.consume([window], 1, now);
    if (counted.admitted) return null;
    deps.blocked.block(client, window.resetsAt);
    deps.onBlocked(client, window.resetsAt);
    return authFailureRefusal(deps.perMinute, window.resetsAt, now);
  },
});
