import { CODE_TO_STATUS, type ErrorCode } from "@gmi/contract";
import type { MockWorld } from "@gmi/rules/world/types";
import type { RouteName } from "../types.js";
import type { MockState } from "./state.js";

// What a resolver is handed and what it answers: here rather than in resolvers.ts, so that the
// resolvers kept in their own files (batch.ts) do not import the table that imports them.

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Usage units (batch items); 1 by default. */
  units?: number;
}

/** A request as a resolver sees it: query and path already parsed by the contract's schemas. */
export interface Input {
  route: RouteName;
  // biome-ignore lint/suspicious/noExplicitAny: parsed by the route's own zod schema just before
  query: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  path: any;
  body: unknown;
  url: URL;
  idempotencyKey: string | null;
  requestId: string;
}

export interface World {
  state: MockState;
  world: MockWorld;
}

export type Resolver = (input: Input, world: World) => Reply;

/** The error envelope with the status its code always has. */
export const errorReply = (
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply => ({
  status: CODE_TO_STATUS[code],
  body: { error: details === undefined ? { code, message } : { code, message, details } },
  ...(headers ? { headers } : {}),
});

export const issuesOf = (
  location: "query" | "path" | "body" | "header",
  issues: Array<{ path: Array<string | number>; message: string }>,
) => ({
  issues: issues.map((issue) => ({ location, field: issue.path.join("."), message: issue.message })),
});
