/** Replaced with package.json's version when the package is built (tsup and vitest `define`). */
declare const __GMI_SDK_VERSION__: string | undefined;

/** The SDK's version, as published (`0.0.0-dev` when run from source without a build step). */
export const SDK_VERSION: string =
  typeof __GMI_SDK_VERSION__ === "string" ? __GMI_SDK_VERSION__ : "0.0.0-dev";

/** The globals the runtimes are told apart by; none is typed by the DOM or Node lib. */
type Globals = {
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string };
  EdgeRuntime?: string;
  process?: { versions?: { node?: string } };
  navigator?: { userAgent?: string };
  window?: unknown;
  document?: unknown;
  WorkerGlobalScope?: unknown;
  WebSocketPair?: unknown;
};

/** `name/version` of the JavaScript runtime: `node/24.1.0`, `bun/1.2.0`, `deno/2.1.0`, `workerd/unknown`, `chrome/131.0`... */
export const detectRuntime = (g: Globals = globalThis as Globals): string => {
  // Deno and Bun also define process.versions.node (Node compatibility), so they are asked first.
  if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
  if (typeof g.Bun?.version === "string") return `bun/${g.Bun.version}`;
  if (typeof g.EdgeRuntime === "string") return "edge-runtime/unknown";
  if (g.navigator?.userAgent === "Cloudflare-Workers") return "workerd/unknown";
  if (g.process?.versions?.node) return `node/${g.process.versions.node}`;
  const agent = g.navigator?.userAgent ?? "";
  // Order matters: Edge says Chrome and Safari too, Chrome says Safari.
  for (const [name, pattern] of BROWSERS) {
    const version = pattern.exec(agent)?.[1];
    if (version) return `${name}/${version}`;
  }
  return "unknown/unknown";
};

const BROWSERS: Array<[string, RegExp]> = [
  ["edge", /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ["firefox", /Firefox\/([\d.]+)/],
  ["chrome", /Chrome\/([\d.]+)/],
  ["safari", /Version\/([\d.]+).*Safari\//],
];

/**
 * A page or a browser worker: where a secret key would be handed to every visitor. Workers,
 * Deno, Bun and edge runtimes have a `navigator` too, so they are excluded by name.
 */
export const isBrowserLike = (g: Globals = globalThis as Globals): boolean => {
  if (g.Deno || g.Bun || g.EdgeRuntime !== undefined || g.WebSocketPair !== undefined) return false;
  if (g.process?.versions?.node && g.window === undefined) return false;
  if (g.window !== undefined && g.document !== undefined && g.navigator !== undefined) return true;
  return typeof g.WorkerGlobalScope === "function" && g.navigator !== undefined;
};

/**
 * What the SDK sends to identify itself: `X-GMI-Client` always, `User-Agent` where the runtime lets
 * a script set it (not in browsers, which keep their own and would preflight a changed one).
 */
export const identification = (g: Globals = globalThis as Globals): Record<string, string> => {
  const client = `gmi-sdk/${SDK_VERSION} ${detectRuntime(g)}`;
  return isBrowserLike(g) ? { "x-gmi-client": client } : { "user-agent": client, "x-gmi-client": client };
};
