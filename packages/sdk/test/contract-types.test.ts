import { readFileSync } from "node:fs";
import type * as C from "@gmi/contract";
import { listRoutes } from "@gmi/contract";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type * as G from "../src/internal/contract-types.js";
import type { RouteName } from "../src/types.js";

/**
 * src/internal/contract-types.ts is the contract resolved to plain TypeScript (no zod in the published
 * declarations). These checks keep it honest: each type equals the contract's own zod inference
 * (checked by `tsc --noEmit`, so a contract change without `generate:types` fails the typecheck).
 * The file is not compared as text: the checker prints properties in an order that can vary.
 */
type Group = keyof C.Contract;
type At<N extends RouteName> = N extends `${infer Gr extends Group}.${infer R}`
  ? C.Contract[Gr][R & keyof C.Contract[Gr]]
  : never;
type Response<N extends RouteName> =
  At<N> extends { responses: { 200: infer S extends z.ZodTypeAny } } ? z.infer<S> : never;
type Query<N extends RouteName> = At<N> extends { query: infer Q extends z.ZodTypeAny } ? z.input<Q> : never;
type Every<N extends RouteName> = {
  [K in N]: { response: Response<K>; query: Query<K>; method: At<K>["method"]; path: At<K>["path"] };
};
type Generated<N extends RouteName> = {
  [K in N]: Pick<G.RouteTypes[K], "response" | "query" | "method" | "path">;
};

describe("the generated contract types", () => {
  it("equal the contract's zod inference, route by route and row by row", () => {
    expectTypeOf<Generated<RouteName>>().toEqualTypeOf<Every<RouteName>>();
    expectTypeOf<RouteName>().toEqualTypeOf<
      { [Gr in Group]: `${Gr}.${keyof C.Contract[Gr] & string}` }[Group]
    >();
    expectTypeOf<G.LiquidityRow>().toEqualTypeOf<C.LiquidityRow>();
    expectTypeOf<G.SearchRow>().toEqualTypeOf<C.SearchRow>();
    expectTypeOf<G.GameHistory>().toEqualTypeOf<C.GameHistory>();
    expectTypeOf<G.AccountRecord>().toEqualTypeOf<C.AccountRecord>();
    expectTypeOf<G.TypedErrorBody>().toEqualTypeOf<C.TypedErrorBody>();
    expectTypeOf<G.ErrorCode>().toEqualTypeOf<C.ErrorCode>();
    expectTypeOf<G.Pagination>().toEqualTypeOf<C.Pagination>();
  });

  it("list every route of the contract (the equalities above are checked by tsc)", () => {
    const generated = readFileSync(new URL("../src/internal/contract-types.ts", import.meta.url), "utf8");
    const names = [...generated.matchAll(/^ {2}"([a-zA-Z.]+)": \{$/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(
      listRoutes()
        .map((r) => r.name)
        .sort(),
    );
  });
});
