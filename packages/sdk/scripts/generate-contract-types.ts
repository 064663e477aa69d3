// Writes src/internal/contract-types.ts: every type the client exposes, resolved from the contract's zod
// schemas into plain TypeScript, so the published declarations need neither zod nor the contract
// to type-check (a frontend on zod 4, or on no zod at all, gets the same types).
// `pnpm --filter @gmi/sdk generate:types` after a contract change: test/contract-types.test.ts
// proves the file equal to the contract's own inference, so the typecheck fails while it is stale.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const OUT = here("../src/internal/contract-types.ts");
const PROBE = here("../src/internal/contract-types.probe.ts");

/** Contract types re-exported by name (the rows a caller names in its own code), with what each is. */
const NAMED: Record<string, string> = {
  AccountRecord: "The calling key's organization, plan, key and month's usage (`GET /api/v1/me`).",
  BatchLiquidityRow: "A found game's liquidity in an intelligence batch (a liquidity row without `rank`).",
  BatchMeta: "A batch's item counts: `total`, `succeeded` (2xx) and `failed`.",
  ConditionRecommendation:
    "The listing condition recommended for one game, with the demand behind each condition.",
  ConsoleRecord: "A console of the catalog: a valid `console_id`.",
  ErrorCode: "Every error code the API sends: a closed list to `switch` on.",
  GameConditionRow: "The demand for one game in one condition (`loose`, `cib`, `new`, `any`).",
  GameHistory: "One game's daily points, for charts.",
  GameIdentity: "Which game a row is about.",
  GameRecord: "A game of the catalog, with its prices.",
  GameSignals: "The raw demand signals of one game in a signals batch.",
  HistoryPoint: "One day of a game's history.",
  LiquidityProfile:
    "One game's liquidity (`GET /api/v1/intelligence/{id}`); `rank` is `null` without demand.",
  LiquidityRow: "A row of the liquidity leaderboard.",
  Links: "URLs of the next and previous pages of a list (`null` at either end).",
  NotFoundItem: "A batch element whose id is not an enabled game: a 200 item with `found: false`.",
  Pagination: "Where a page stands: page mode (`page`, `last_page`) or cursor mode (`next_cursor`).",
  Period: "The window of a figure: one day, 7 days or 30 days ending on the period date.",
  SearchConditionRow: "The market-wide search volume of one condition.",
  SearchRow: "A row of the search-demand leaderboards.",
  TypedErrorBody: "The error body, its `details` typed by `code`.",
};

/** The probe: contract-derived types the checker resolves, one alias per thing to print. */
const probeSource = `
import type * as C from "@gmi/contract";
import type { z } from "zod";
type Group = keyof C.Contract;
type Name = { [G in Group]: \`\${G}.\${keyof C.Contract[G] & string}\` }[Group];
type At<N extends Name> = N extends \`\${infer G extends Group}.\${infer R}\` ? C.Contract[G][R & keyof C.Contract[G]] : never;
type In<T> = T extends z.ZodTypeAny ? z.input<T> : never;
export type __Route<N extends Name> = {
  method: At<N>["method"];
  path: At<N>["path"];
  query: At<N> extends { query: infer Q } ? In<Q> : never;
  pathParams: At<N> extends { pathParams: infer P } ? In<P> : never;
  response: At<N> extends { responses: { 200: infer S } } ? (S extends z.ZodTypeAny ? z.infer<S> : never) : never;
};
export type __All = { [N in Name]: __Route<N> };
export type __MaxPageSize = (typeof C.PLANS)["enterprise"]["max_page_size"];
/** Spells out aliases (ErrorBodyOf<C>) that would otherwise be printed by a name the file lacks. */
type Expand<T> = T extends unknown ? { [K in keyof T]: T[K] } : never;
${Object.keys(NAMED)
  .map((n) => `export type __${n} = Expand<C.${n}>;`)
  .join("\n")}
`;

const FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

export const generate = (): string => {
  writeFileSync(PROBE, probeSource);
  try {
    const configPath = here("../tsconfig.json");
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    );
    if (!config) throw new Error("no tsconfig");
    const program = ts.createProgram([PROBE], { ...config.options, noEmit: true });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(PROBE);
    if (!source) throw new Error("probe not loaded");
    const aliases = new Map<string, ts.TypeAliasDeclaration>();
    for (const statement of source.statements)
      if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
    const print = (type: ts.Type) => checker.typeToString(type, undefined, FLAGS).replaceAll("'", '"');
    const typeOf = (name: string) => {
      const alias = aliases.get(name);
      if (!alias) throw new Error(`probe has no ${name}`);
      return checker.getTypeAtLocation(alias.name);
    };
    const all = typeOf("__All");
    const routes = checker
      .getPropertiesOfType(all)
      .map((route) => route.getName())
      .sort()
      .map((name) => {
        const symbol = all.getProperty(name);
        if (!symbol) throw new Error(`no route ${name}`);
        const entry = checker.getTypeOfSymbol(symbol);
        const props = ["method", "path", "query", "pathParams", "response"].map((key) => {
          const prop = entry.getProperty(key);
          if (!prop) throw new Error(`${name} has no ${key}`);
          return `    ${key}: ${print(checker.getTypeOfSymbol(prop))};`;
        });
        return `  "${name}": {\n${props.join("\n")}\n  };`;
      });
    const named = Object.entries(NAMED).map(
      ([n, doc]) => `/** ${doc} */\nexport type ${n} = ${print(typeOf(`__${n}`))};`,
    );
    return [
      "// Generated by scripts/generate-contract-types.ts from @gmi/contract: do not edit.",
      "// biome-ignore-all format: generated",
      "// biome-ignore-all lint/complexity/noBannedTypes: an empty `meta` is zod's `{}`",
      "",
      "/** Method, path, query and path parameters (as the caller writes them) and 200 body of every route. */",
      "export interface RouteTypes {",
      ...routes,
      "}",
      "",
      `/** The largest page any plan serves. */\nexport type MaxPageSize = ${print(typeOf("__MaxPageSize"))};`,
      "",
      ...named,
      "",
    ].join("\n");
  } finally {
    ts.sys.deleteFile?.(PROBE);
  }
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OUT, generate());
  console.log(`wrote ${OUT}`);
}
