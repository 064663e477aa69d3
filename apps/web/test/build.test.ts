// @vitest-environment node
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Mock mode (src/mock/, msw in a service worker) is for `pnpm dev:web --mock` only: the build the
 * server serves at /app must hold neither msw, nor the SDK's mocks, nor the worker script.
 */
const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

describe.runIf(existsSync(DIST))("the production build", () => {
  it("holds no mock: no msw, no worker script, no scenario panel", async () => {
    const files = await readdir(DIST, { recursive: true });
    expect(files.filter((f) => /mockServiceWorker|msw/i.test(f))).toEqual([]);
    const scripts = files.filter((f) => f.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const text = await readFile(`${DIST}${file}`, "utf8");
      // Words only msw, the SDK's mocks and src/mock/ contain; the app itself uses none of them.
      for (const word of ["mockServiceWorker", "setupWorker", "HttpResponse", "installGmiMocks", "Mock API"])
        expect(text.includes(word), `${file} contains ${word}`).toBe(false);
    }
  });
});
