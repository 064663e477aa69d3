import type { BrowserContext } from "playwright-core";
import { chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`, .ci/run): never a browser download. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Chromium as this machine kind allows it: no sandbox (root), and none of its background
 * connections, which the closed network refuses many at a time. Shared by the browser tests of
 * /docs and of the dashboard (apps/web).
 */
export const launchChromium = (
  userDataDir: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> =>
  chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
