// Runs examples/market-report.mts: against GMI_BASE_URL with GMI_API_KEY when set, else against the
// SDK's msw mocks so the example works before a server is up.
import { setupServer } from "msw/node";
import { explain, marketReport } from "../../../examples/market-report.mjs";
import { GmiClient } from "../src/index.js";
import { installGmiMocks } from "../src/msw/index.js";

const baseUrl = process.env.GMI_BASE_URL;
const mocks = baseUrl ? undefined : installGmiMocks(setupServer, { baseUrl: "https://api.gmi.test" });
mocks?.server.listen({ onUnhandledFrame: "error" });
const client = new GmiClient({
  apiKey: process.env.GMI_API_KEY ?? "demo-key",
  baseUrl: baseUrl ?? "https://api.gmi.test",
});
try {
  if (mocks) console.log("(no GMI_BASE_URL: using the SDK's msw mocks)\n");
  console.log((await marketReport(client, process.argv[2])).join("\n"));
} catch (error) {
  console.error(explain(error));
  process.exitCode = 1;
} finally {
  mocks?.server.close();
}
