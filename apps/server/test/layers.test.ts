import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ICruiseResult, IForbiddenRuleType } from "dependency-cruiser";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/**
 * The import rules `pnpm lint` checks (.dependency-cruiser.cjs at the repository's root), run on a
 * small tree of deliberately broken imports laid out as the repository is: each kind of rule must
 * refuse exactly the imports it forbids and let the others through, so the lint is proven to fail
 * on a forbidden import rather than assumed to.
 */
const config = createRequire(import.meta.url)("../../../.dependency-cruiser.cjs") as {
  forbidden: IForbiddenRuleType[];
  options: { tsPreCompilationDeps: boolean };
};
const fixtures = fileURLToPath(new URL("fixtures/layers", import.meta.url));

const violationsIn = async (paths: string[]) => {
  const { output } = await cruise(paths, {
    baseDir: fixtures,
    ruleSet: { forbidden: config.forbidden },
    validate: true,
    tsPreCompilationDeps: config.options.tsPreCompilationDeps,
  });
  return (output as ICruiseResult).summary.violations
    .map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`)
    .sort();
};

describe("the import rules", () => {
  it("refuse a server layer's imports that run back up, type imports included, and pass the allowed ones", async () => {
    const server = "apps/server/src";
    expect(await violationsIn([server])).toEqual([
      `server-caches: ${server}/caches/memo.ts → ${server}/plugins/hook.ts`,
      `server-domain-table-types: ${server}/domain/count.ts → ${server}/db/tables/things.ts`,
      `server-domain: ${server}/domain/score.ts → ${server}/routes/list.ts`,
      `server-plugins: ${server}/plugins/hook.ts → ${server}/routes/list.ts`,
      `server-routes: ${server}/routes/list.ts → ${server}/data/rows.ts`,
    ]);
  });

  it("refuse the SDK's internal/ importing a public file, and a cycle even through a type import", async () => {
    const sdk = "packages/sdk/src";
    expect(await violationsIn([sdk])).toEqual([
      // One report per cycle, from the module where the walk closed it (its type-only half).
      `no-circular: ${sdk}/msw/batch.ts → ${sdk}/msw/resolvers.ts`,
      `sdk-internal-private: ${sdk}/internal/core.ts → ${sdk}/list-call.ts`,
    ]);
  });
});
