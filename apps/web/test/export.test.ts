import type { GameHistory, LiquidityRow } from "@gmi/sdk";
import { describe, expect, it } from "vitest";
import { csvFileName, toCsv } from "../src/csv.js";
import { historyCsv, leaderboardCsv } from "../src/export.js";
import { formatChange, formatPrice } from "../src/format.js";
import { bandOf, topPercent } from "../src/score-scale.js";

describe("CSV (RFC 4180)", () => {
  it("quotes only fields with a comma, a quote or a line break, doubling quotes, with CRLF records", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["plain", 1.5],
          ['say "hi", then\nleave', null],
        ],
      ),
    ).toBe('a,b\r\nplain,1.5\r\n"say ""hi"", then\nleave",\r\n');
    expect(toCsv(["x"], [["carriage\rreturn"]])).toBe('x\r\n"carriage\rreturn"\r\n');
  });

  it("names files by what they hold and the date of the data", () => {
    expect(csvFileName("chrono-trigger", "history", "2026-11-27")).toBe(
      "gmi-chrono-trigger-history-2026-11-27.csv",
    );
    expect(csvFileName("leaderboard", "", "7d", "liquidity", "", "2026-11-27")).toBe(
      "gmi-leaderboard-7d-liquidity-2026-11-27.csv",
    );
    expect(csvFileName("Pokémon: Red/Blue")).toBe("gmi-pok-mon-red-blue.csv");
  });
});

const game = {
  id: 101,
  name: 'Chrono "CT", Trigger',
  slug: "chrono-trigger",
  console_id: 2,
  console_name: "SNES",
};

describe("exports from the SDK's data", () => {
  it("writes a leaderboard page row by row, prices as the API's decimals", () => {
    const row: LiquidityRow = {
      rank: 1,
      game,
      demand: { redirects: 1200, distinct_users: 318, watch_count: 57, index: 0.94 },
      momentum: { value: null, label: "unknown" },
      pricing: { loose: "149.99", complete: "1289.00", new: null },
      price_accessibility: 0.42,
      liquidity_score: 78,
    };
    const [header, line, end] = leaderboardCsv([row]).split("\r\n");
    expect(header).toBe(
      "Rank,Game id,Game,Console,Liquidity score,Demand index,Redirects,Distinct buyers,Watchlist alerts,Momentum,Momentum value,Loose,Complete,New,Price accessibility",
    );
    expect(line).toBe(
      '1,101,"Chrono ""CT"", Trigger",SNES,78,0.94,1200,318,57,unknown,,149.99,1289.00,,0.42',
    );
    expect(end).toBe("");
  });

  it("writes a history a day per line: prices every day, figures on the computed days only", () => {
    const history: GameHistory = {
      game,
      points: [
        {
          date: "2026-10-02",
          liquidity_score: 77,
          demand_index: 0.93,
          redirects: 70,
          distinct_users: 58,
          watch_count: 56,
          search_count: 151,
        },
      ],
      prices: [
        { date: "2026-10-01", loose: null, complete: null, new: null },
        { date: "2026-10-02", loose: "149.99", complete: "289.00", new: null },
      ],
      price_changes: [],
    };
    expect(historyCsv(history).split("\r\n")).toEqual([
      "Date,Loose,Complete,New,Liquidity score,Demand index,Redirects,Distinct buyers,Watchlist alerts,Searches",
      "2026-10-01,,,,,,,,,",
      "2026-10-02,149.99,289.00,,77,0.93,70,58,56,151",
      "",
    ]);
  });
});

describe("what a seller reads", () => {
  it("writes price changes with their sign, in dollars and percent", () => {
    expect(formatChange({ change: "10.00", change_ratio: 0.0714 })).toBe("+$10.00 (+7.1 %)");
    expect(formatChange({ change: "-1250.50", change_ratio: -0.5 })).toBe("−$1,250.50 (−50.0 %)");
    expect(formatChange({ change: "4.00", change_ratio: null })).toBe("+$4.00");
    expect(formatChange({ change: "0.00", change_ratio: 0 })).toBe("no change");
    expect(formatChange(null)).toBe("—");
    expect(formatPrice("1242.00")).toBe("$1,242.00");
  });

  it("colours a score by its place in the scope, not by a fixed threshold", () => {
    const scale = { total: 445, top10: 35, topHalf: 12 };
    expect(bandOf(scale, 35)).toBe("top10");
    expect(bandOf(scale, 34)).toBe("topHalf");
    expect(bandOf(scale, 11)).toBe("lowerHalf");
    expect(topPercent(13, 445)).toBe("top 3 %");
    expect(topPercent(1, 445)).toBe("top 1 %");
    expect(topPercent(445, 445)).toBe("top 100 %");
  });
});
