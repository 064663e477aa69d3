import type { ErrorCode, PlanSlug, Scope } from "@gmi/contract";
import type { RouteName } from "../types.js";
import type { IdempotencyRecord } from "./idempotency.js";
import { RateMeter } from "./limits.js";

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

/** Everything a test can change, and everything it can observe, about the mocked API. */
export class MockState {
  plan: PlanSlug;
  scopes: Set<Scope>;
  expiredKey = false;
  revokedKey = false;
  inactive = false;
  /** Whose suspension `inactive` is. */
  inactiveSubject: "organization" | "api_client" = "organization";
  /** Seconds until the quota resets while exhausted; `null` when not exhausted. */
  quotaResetsIn: number | null = null;
  faults: Fault[] = [];
  /** Game id → the status its batch items fail with, and how many more times. */
  itemFaults = new Map<number, { status: number; times: number }>();
  /** Idempotency-Key → its record (in flight, or the stored answer). */
  idempotency = new Map<string, IdempotencyRecord>();
  requests: RecordedRequest[] = [];
  /** The organization's rate windows and monthly usage, as the server counts them. */
  readonly limits = new RateMeter();
  private hold: { reached: () => void; gate: Promise<void> } | null = null;

  constructor(
    private readonly defaults: { plan: PlanSlug; scopes: Scope[] },
    /** The mock's clock (rate windows, the quota's month, idempotency expiry). */
    public now: () => number = Date.now,
  ) {
    this.plan = defaults.plan;
    this.scopes = new Set(defaults.scopes);
  }

  reset(): void {
    this.plan = this.defaults.plan;
    this.scopes = new Set(this.defaults.scopes);
    this.expiredKey = false;
    this.revokedKey = false;
    this.inactive = false;
    this.inactiveSubject = "organization";
    this.quotaResetsIn = null;
    this.faults = [];
    this.itemFaults.clear();
    this.idempotency.clear();
    this.requests = [];
    this.limits.reset();
    this.hold = null;
  }

  /** Units of the monthly quota used so far. */
  get monthUsed(): number {
    return this.limits.monthUsed;
  }
  set monthUsed(units: number) {
    this.limits.monthUsed = units;
  }

  /**
   * Keeps the next batch with an Idempotency-Key in flight, just after its key is claimed, until
   * `release`: a test sees what a second request with that key gets meanwhile (409).
   */
  holdNextBatch(): { reached: Promise<void>; release(): void } {
    let release = () => {};
    let reached = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    this.hold = { reached, gate };
    return { reached: reachedPromise, release };
  }

  /** Where a claimed batch waits when a hold is armed (holdNextBatch). */
  async held(): Promise<void> {
    const hold = this.hold;
    if (!hold) return;
    this.hold = null;
    hold.reached();
    await hold.gate;
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
}
