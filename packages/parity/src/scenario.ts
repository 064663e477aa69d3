import type { PlanSlug, Scope } from "@gmi/contract";

/** A key a scenario uses: a fresh organization of its own on the server, a mock of its own in msw. */
export type KeySpec = {
  /** Default `pro`. */
  plan?: PlanSlug;
  /** Default: every scope. */
  scopes?: Scope[];
  /** Default `active`. */
  state?: "active" | "revoked" | "expired" | "suspended-organization" | "suspended-client";
  /** Units of the monthly quota already spent before the scenario starts. */
  monthUsed?: number;
};

/**
 * Whose credentials a request carries: a key of the scenario by name (default `main`), a literal
 * Authorization header, or none.
 */
export type Credentials = string | { header: string } | null;

export type Req = {
  method?: "GET" | "POST" | "OPTIONS" | "DELETE";
  /** Path under the base URL, `/api/v1/...`; its parameters already encoded. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON (with `content-type: application/json` unless `headers` names another). */
  body?: unknown;
  /** Sent as is, instead of `body`. */
  rawBody?: string;
  key?: Credentials;
};

export type Step =
  /** One request. `sameBytesAs`: its body must equal, byte for byte, that of the response so labelled. */
  | {
      kind: "send";
      label?: string;
      request: Req;
      sameBytesAs?: string;
      /** Sends the `meta.pagination.next_cursor` of the answer so labelled as `cursor`. */
      cursorFrom?: string;
    }
  /** The request, then every page after it by `links.next` or by `meta.pagination.next_cursor`. */
  | { kind: "walk"; request: Req; follow: "links.next" | "cursor"; max?: number }
  /** The same request `times` times in a row (a window walked to its refusal). */
  | { kind: "repeat"; request: Req; times: number }
  /**
   * `held` is sent and kept in flight (its batch work held just after its Idempotency-Key is
   * claimed), `during` are answered meanwhile, then `held` is let go and answered.
   */
  | { kind: "held"; held: Req; during: Req[] }
  /** Both clocks move forward. */
  | { kind: "advance"; ms: number };

export type Scenario = {
  name: string;
  /** Default: `{ main: {} }` (a Pro key with every scope). */
  keys?: Record<string, KeySpec>;
  steps: Step[];
};

/** One answer as the suite sees it: header names lower-cased, the body as text. */
export type Answer = { status: number; headers: Record<string, string>; body: string };

/** Who a key belongs to on the server, told to the mock so that `/me` names the same account. */
export type Account = { organization: { id: number; name: string }; keyName: string };

/** One side of the comparison: the real server, or the msw handlers. */
export interface Side {
  readonly name: "server" | "mock";
  /** Keys of a scenario; `server` is the server's session, whose keys and accounts the mock is given. */
  open(keys: Record<string, KeySpec>, server?: Pick<Session, "tokens" | "accounts">): Promise<Session>;
  close(): Promise<void>;
}

export interface Session {
  /** The key material of each key (the server issues it; the mock is given the same). */
  readonly tokens: Record<string, string>;
  readonly accounts: Record<string, Account>;
  send(request: Req): Promise<Answer>;
  /** Holds the work of the next batch request until `release`; `reached` when it is held. */
  holdNextBatch(): { reached: Promise<void>; release(): void };
  advance(ms: number): void;
  end(): Promise<void>;
}
