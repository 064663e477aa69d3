import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";

/**
 * Prisma's WebAssembly schema engine, driven through the pg driver adapter. The Prisma CLI would
 * download a native engine at start from a host this machine cannot reach; the WASM engine does the
 * same migrations work offline and writes the standard `_prisma_migrations` table, so production can
 * still use `prisma migrate deploy` if it prefers.
 *
 * `@prisma/internals` looks for the .wasm under its own build folder, which is not shipped, so we
 * instantiate the engine package it depends on ourselves, the way its loader does.
 */
type WasmExports = Record<string, unknown>;
type EngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg") & {
  __wbg_set_wasm(exports: WasmExports): void;
};

// The server compiles without the DOM library, where the WebAssembly API is declared.
type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, unknown>) => { exports: WasmExports };
};
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let engineClass: Promise<typeof SchemaEngine> | undefined;

const loadEngineClass = async (): Promise<typeof SchemaEngine> => {
  const runtime = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as EngineModule;
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(
    path.dirname(require.resolve("@prisma/schema-engine-wasm")),
    "schema_engine_bg.wasm",
  );
  const module = new wasm.Module(await readFile(wasmPath));
  const instance = new wasm.Instance(module, { "./schema_engine_bg.js": runtime as never });
  runtime.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return runtime.SchemaEngine;
};

export type EngineSession = { engine: SchemaEngine; close(): Promise<void> };

/** Opens an engine on `url` with the given schema; `close` frees it. */
export const openSchemaEngine = async (
  url: string,
  schema: { path: string; content: string },
): Promise<EngineSession> => {
  engineClass ??= loadEngineClass();
  const Engine = await engineClass;
  // Our own pool, so that closing the session really closes its connections (freeing the engine
  // does not), and a test can drop the database right after.
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {});
  const adapterFactory = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const log = () => {};
  const engine = await Engine.new({ datamodels: [[schema.path, schema.content]] }, log, adapterFactory);
  return {
    engine,
    close: async () => {
      engine.free();
      await pool.end();
    },
  };
};
