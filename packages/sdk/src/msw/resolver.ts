import type { MockWorld } from "@gmi/rules/world/types";
import type { RouteName } from "../types.js";
import type { Reply } from "./reply.js";
import type { MockState } from "./state.js";

// What a resolver is handed: here rather than in resolvers.ts, so that the resolvers kept in their
// own files (batch.ts) do not import the table that imports them, nor reply.ts the state.

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
