import { existsSync } from "node:fs";
import { CHROMIUM } from "./helpers/chromium.js";

/**
 * Vitest global setup of the integration project. On a developer machine a suite whose service is
 * missing skips (describe.skipIf); in CI (`CI=true`, set by .ci/run) that would turn a lost service
 * into a green run with less tested, so the run fails before any test instead.
 */
const REQUIRED_IN_CI: ReadonlyArray<{ what: string; present: () => boolean }> = [
  { what: "TEST_DATABASE_URL (PostgreSQL)", present: () => Boolean(process.env.TEST_DATABASE_URL) },
  { what: "TEST_REDIS_URL (Redis)", present: () => Boolean(process.env.TEST_REDIS_URL) },
  { what: `${CHROMIUM} (Debian's Chromium)`, present: () => existsSync(CHROMIUM) },
];

export function setup(): void {
  if (process.env.CI !== "true") return;
  const missing = REQUIRED_IN_CI.filter((service) => !service.present()).map((service) => service.what);
  if (missing.length > 0) {
    throw new Error(`CI must run every suite; missing: ${missing.join(", ")} (see .ci/run)`);
  }
}
