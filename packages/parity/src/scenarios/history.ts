import { IDS, LATEST_DATE } from "../fixture.js";
import type { Scenario } from "../scenario.js";

const history = (query: Record<string, string>, id: number = IDS.game) => ({
  kind: "send" as const,
  request: { path: `/api/v1/intelligence/${id}/history`, query },
});

/** History ranges (contract routes/history-range.ts) and their 422s. */
export const historyScenarios = (): Scenario[] => [
  {
    name: "history: the default range",
    steps: [history({}), history({ period: "7d" }), history({ period: "30d" })],
  },
  {
    name: "history: explicit ranges",
    steps: [
      history({ from: "2026-11-01", to: LATEST_DATE }),
      history({ from: "2026-11-18", to: "2026-11-19" }),
      history({ from: "2026-09-01", to: "2026-10-15" }),
      history({ from: "2026-08-23", to: "2026-11-20" }),
    ],
  },
  {
    name: "history: one end given",
    steps: [history({ from: "2026-11-10" }), history({ from: "2026-09-01" }), history({ to: "2026-11-19" })],
  },
  {
    name: "history: refused ranges",
    steps: [
      history({ from: "2026-11-21" }),
      history({ from: "2026-11-20", to: "2026-11-19" }),
      history({ from: "2026-08-22", to: "2026-11-20" }),
      history({ to: "2026-02-30" }),
      history({ from: "2026-11" }),
      history({ date: LATEST_DATE }),
    ],
  },
  {
    name: "history: games without prices, without demand, the twin title",
    steps: [history({}, IDS.unpriced), history({}, IDS.quiet), history({ period: "7d" }, IDS.twin)],
  },
];
