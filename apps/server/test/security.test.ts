import { afterAll, beforeAll } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { startTestApp } from "./helpers/app.js";
import { seedAnalytics } from "./helpers/batch.js";
import { describeSecurityForEveryRoute } from "./helpers/security.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase();
let t: TestApp;
beforeAll(async () => {
  // Analytics computed, so a valid key gets its 200 on every route (never the 503 of no snapshot).
  await seedAnalytics(db());
  t = await startTestApp(db().pool);
});
afterAll(() => t?.close());

describeSecurityForEveryRoute(() => ({ app: t.app, sql: db().pool }));
