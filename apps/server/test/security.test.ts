import { afterAll, beforeAll } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { startTestApp } from "./helpers/app.js";
import { describeSecurityForEveryRoute } from "./helpers/security.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(db().pool);
});
afterAll(() => t?.close());

describeSecurityForEveryRoute(() => ({ app: t.app, sql: db().pool }));
