import { describe, expect, it } from "vitest";
import { detectRuntime, identification, isBrowserLike, SDK_VERSION } from "./platform.js";

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36";
const page = { window: {}, document: {}, navigator: { userAgent: CHROME } };

describe("the runtime, as the identification header names it", () => {
  it.each([
    ["node", { process: { versions: { node: "20.19.1" } } }, "node/20.19.1"],
    // Deno and Bun also carry process.versions.node: their own names win.
    [
      "deno",
      { Deno: { version: { deno: "2.1.4" } }, process: { versions: { node: "22.0.0" } } },
      "deno/2.1.4",
    ],
    ["bun", { Bun: { version: "1.2.3" }, process: { versions: { node: "22.6.0" } } }, "bun/1.2.3"],
    ["edge-runtime", { EdgeRuntime: "edge-runtime", navigator: { userAgent: "x" } }, "edge-runtime/unknown"],
    [
      "workerd",
      { navigator: { userAgent: "Cloudflare-Workers" }, process: { versions: { node: "22.0.0" } } },
      "workerd/unknown",
    ],
    ["chrome", page, "chrome/131.0.6778.85"],
    [
      "firefox",
      {
        ...page,
        navigator: { userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" },
      },
      "firefox/133.0",
    ],
    ["nothing known", {}, "unknown/unknown"],
  ])("%s", (_name, globals, expected) => {
    expect(detectRuntime(globals)).toBe(expected);
  });
});

describe("a browser, where a key is refused without the opt-in", () => {
  it("is a page or a browser worker", () => {
    expect(isBrowserLike(page)).toBe(true);
    expect(isBrowserLike({ WorkerGlobalScope: () => {}, navigator: { userAgent: CHROME } })).toBe(true);
  });

  it("is not Node, Deno, Bun, workerd or an edge runtime, though they have a navigator", () => {
    expect(
      isBrowserLike({ process: { versions: { node: "24.0.0" } }, navigator: { userAgent: "Node.js/24" } }),
    ).toBe(false);
    expect(isBrowserLike({ Deno: { version: { deno: "2.0.0" } }, navigator: {} })).toBe(false);
    expect(isBrowserLike({ Bun: { version: "1.2.0" }, navigator: {} })).toBe(false);
    expect(isBrowserLike({ WebSocketPair: () => {}, navigator: { userAgent: "Cloudflare-Workers" } })).toBe(
      false,
    );
    expect(isBrowserLike({ EdgeRuntime: "edge-runtime", navigator: {} })).toBe(false);
  });
});

describe("identification headers", () => {
  it("name the SDK's version and the runtime; User-Agent only where a script may set it", () => {
    const node = identification({ process: { versions: { node: "24.1.0" } } });
    expect(node).toEqual({
      "user-agent": `gmi-sdk/${SDK_VERSION} node/24.1.0`,
      "x-gmi-client": `gmi-sdk/${SDK_VERSION} node/24.1.0`,
    });
    // A browser keeps its own User-Agent; setting one would also make every call preflighted.
    expect(identification(page)).toEqual({ "x-gmi-client": `gmi-sdk/${SDK_VERSION} chrome/131.0.6778.85` });
  });

  it("carry package.json's version (vitest defines it as tsup does)", async () => {
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    expect(SDK_VERSION).toBe(version);
  });
});
