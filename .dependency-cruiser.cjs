// The import rules of the repository, checked by `pnpm lint` (dependency-cruiser): CI fails on an
// import that runs back up a layer, on a cycle, and on the SDK's internals reaching its public files.
// The layers are described in docs/architecture.md; this file is what holds them.
// apps/server/test/layers.test.ts proves each kind of rule refuses what it should.

const SERVER = "apps/server/src";

/** Modules every layer of the server may import: they import nothing of ours but the contract. */
const KERNEL = ["clock.ts", "errors.ts"];

/**
 * What each folder of the server may import besides itself and the kernel (a folder ends in "/",
 * a file does not). Tests beside the code (`*.test.ts`) are exempt: they may reach for fixtures.
 * app.ts, main.ts and server.ts build and start everything, so they may import anything.
 */
const SERVER_LAYERS = {
  // Pure functions over plain data: no I/O, no timer, no framework. The rows it builds for the
  // snapshot tables are typed from their declarations (types only: the rule below).
  "domain/": ["db/tables/"],
  // The tables written in bulk, declared once as plain data (their rows' types derive from it).
  "db/tables/": [],
  "db/": ["domain/", "config.ts"],
  "data/": ["domain/", "db/"],
  "caches/": ["domain/", "config.ts"],
  "metering/": ["domain/", "db/", "data/", "caches/", "config.ts"],
  "reads/": ["data/", "domain/", "caches/", "config.ts"],
  "routes/": ["reads/", "domain/", "caches/", "http-request.ts"],
  "plugins/": ["data/", "domain/", "caches/", "metering/", "logging/", "http-request.ts", "config.ts"],
  "rollup/": ["data/", "db/", "domain/", "config.ts"],
  "jobs/": ["data/", "db/", "domain/"],
  "demo/": ["domain/", "db/", "jobs/", "rollup/"],
  "cli/": ["jobs/", "rollup/", "demo/", "data/", "db/", "domain/", "config.ts"],
  "logging/": [],
  "config.ts": ["domain/"],
  "http-request.ts": ["domain/"],
};

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A folder ("x/") matches everything below it, a file ("x.ts") itself only. */
const under = (root, part) => `^${literal(`${root}/${part}`)}${part.endsWith("/") ? "" : "$"}`;

const serverLayerRules = Object.entries(SERVER_LAYERS).map(([layer, allowed]) => ({
  name: `server-${layer.replace(/\/$/, "").replace(/[/.]/g, "-")}`,
  comment: `${SERVER}/${layer} may import ${[...allowed, ...KERNEL].join(", ")} and itself`,
  severity: "error",
  from: { path: under(SERVER, layer), pathNot: "\\.test\\.ts$" },
  to: {
    path: `^${literal(SERVER)}/`,
    pathNot: [layer, ...allowed, ...KERNEL].map((part) => under(SERVER, part)),
  },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module may reach itself through its imports (type-only imports included).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...serverLayerRules,
    {
      name: "server-domain-table-types",
      comment: "apps/server/src/domain/ takes only types from db/tables/ (the rows it builds), never code.",
      severity: "error",
      from: { path: under(SERVER, "domain/"), pathNot: "\\.test\\.ts$" },
      to: { path: under(SERVER, "db/tables/"), dependencyTypesNot: ["type-only"] },
    },
    {
      name: "rules-pure",
      comment:
        "packages/rules (the rules the server and the SDK's mocks share) imports nothing of ours but the " +
        "contract: no server, no SDK, no other package.",
      severity: "error",
      from: { path: "^packages/rules/src/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(apps|examples|packages/(?!rules/|contract/))" },
    },
    {
      name: "rules-portable",
      comment:
        "packages/rules runs in browsers too (the SDK's msw entry bundles it): no Node built-in modules.",
      severity: "error",
      from: { path: "^packages/rules/src/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "parity-private",
      comment:
        "packages/parity (the parity suite) reaches into the server and the SDK; nothing may import it back.",
      severity: "error",
      from: { pathNot: "^packages/parity/" },
      to: { path: "^packages/parity/" },
    },
    {
      name: "sdk-internal-private",
      comment:
        "packages/sdk/src/internal/ is private: public files import it, never the reverse (openai-node's " +
        "src/internal/).",
      severity: "error",
      from: { path: "^packages/sdk/src/internal/" },
      to: {
        path: "^packages/sdk/src/",
        pathNot: "^packages/sdk/src/internal/",
      },
    },
  ],
  options: {
    // Type-only imports count: a layer's types are part of what it depends on, and cycles of types
    // tangle the modules just as much.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: [
        "node_modules",
        "/dist/",
        "/generated/",
        "/\\.turbo/",
        "/\\.tools/",
        // Deliberately broken imports that apps/server/test/layers.test.ts cruises on its own.
        "^apps/server/test/fixtures/layers/",
      ],
    },
    tsConfig: { fileName: "tsconfig.base.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
