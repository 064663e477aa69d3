import type { ErrorCode, PlanSlug, Scope } from "@gmi/contract";
import type { RouteName } from "../types.js";

/** A fault injected by a scenario: the next `times` matching requests get it instead of an answer. */
export interface Fault {
  kind: "error" | "network" | "delay";
  status?: number;
  code?: ErrorCode;
  details?: Record<string, unknown>;
  retryAfter?: number;
  delayMs?: number;
  times: number;
  routes?: RouteName[] | undefined;
  method?: "GET" | "POST" | undefined;
}

export interface RecordedRequest {
  route: RouteName;
  method: string;
  url: string;
  idempotencyKey: string | null;
  /** Parsed JSON body of POSTs. */
  body: unknown;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: unknown;
}

/** Everything a test can change, and everything it can observe, about the mocked API. */
export class MockState {
  plan: PlanSlug;
  scopes: Set<Scope>;
  expiredKey = false;
  inactive = false;
  /** Seconds until the quota resets while exhausted; `null` when not exhausted. */
  quotaResetsIn: number | null = null;
  faults: Fault[] = [];
  /** Game id → the status its batch items fail with, and how many more times. */
  itemFaults = new Map<number, { status: number; times: number }>();
  idempotency = new Map<string, StoredResponse>();
  requests: RecordedRequest[] = [];
  /** Units used in the current one-minute window, and the month. */
  windowStart = 0;
  windowUsed = 0;
  monthUsed = 0;

  constructor(
    private readonly defaults: { plan: PlanSlug; scopes: Scope[] },
    readonly now: () => number = Date.now,
  ) {
    this.plan = defaults.plan;
    this.scopes = new Set(defaults.scopes);
  }

  reset(): void {
    this.plan = this.defaults.plan;
    this.scopes = new Set(this.defaults.scopes);
    this.expiredKey = false;
    this.inactive = false;
    this.quotaResetsIn = null;
    this.faults = [];
    this.itemFaults.clear();
    this.idempotency.clear();
    this.requests = [];
    this.windowStart = 0;
    this.windowUsed = 0;
    this.monthUsed = 0;
  }

  /** The first pending fault matching this request, consumed. */
  takeFault(route: RouteName, method: string, kind: Fault["kind"]): Fault | undefined {
    const fault = this.faults.find(
      (f) =>
        f.kind === kind &&
        f.times > 0 &&
        (!f.routes || f.routes.includes(route)) &&
        (!f.method || f.method === method),
    );
    if (fault) fault.times--;
    return fault;
  }

  takeItemFault(id: number): number | undefined {
    const fault = this.itemFaults.get(id);
    if (!fault || fault.times <= 0) return undefined;
    fault.times--;
    return fault.status;
  }

  /** Meters `units` and returns the rate-limit headers (reported, not enforced: scenarios inject 429s). */
  meter(units: number, perMinute: number): Record<string, string> {
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.windowUsed = 0;
    }
    this.windowUsed += units;
    this.monthUsed += units;
    return {
      "x-ratelimit-limit": String(perMinute),
      "x-ratelimit-remaining": String(Math.max(0, perMinute - this.windowUsed)),
      "x-ratelimit-reset": String(Math.ceil((this.windowStart + 60_000 - now) / 1000)),
    };
  }
}
