import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Empty, Loading, SnapshotFooter } from "../components/Pager.js";
import { Score, ScoreLegend } from "../components/Score.js";
import { TableWrap } from "../components/TableWrap.js";
import { csvFileName, downloadCsv } from "../csv.js";
import { leaderboardCsv } from "../export.js";
import { formatCount, formatPrice } from "../format.js";
import { hrefOf } from "../route.js";
import { loadScoreScale } from "../score-scale.js";
import { useCall } from "../use-call.js";

export const PERIODS = [
  { value: "day", label: "Last day" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
] as const;
export type PeriodValue = (typeof PERIODS)[number]["value"];
/** "Last 7 days" for `7d`. */
export const periodLabel = (period: PeriodValue): string =>
  PERIODS.find((p) => p.value === period)?.label ?? period;
const SORTS = [
  { value: "liquidity", label: "Liquidity score" },
  { value: "demand", label: "Demand" },
  { value: "value", label: "Price" },
] as const;
const PAGE_SIZE = 20;

export const PeriodSelect = (props: { value: PeriodValue; onChange: (value: PeriodValue) => void }) => (
  <label>
    Period{" "}
    <select value={props.value} onChange={(e) => props.onChange(e.target.value as PeriodValue)}>
      {PERIODS.map((p) => (
        <option key={p.value} value={p.value}>
          {p.label}
        </option>
      ))}
    </select>
  </label>
);

/** The liquidity leaderboard: what sells, filtered by console and period, a page at a time. */
export const Leaderboard = () => {
  const [period, setPeriod] = useState<PeriodValue>("7d");
  const [consoleId, setConsoleId] = useState<number | undefined>(undefined);
  const [sort, setSort] = useState<(typeof SORTS)[number]["value"]>("liquidity");
  const [page, setPage] = useState(1);
  const consoles = useCall((client) => client.consoles.list({ limit: 200 }), []);
  const rows = useCall(
    (client) => client.intelligence.list({ period, sort, page, limit: PAGE_SIZE, console_id: consoleId }),
    [period, sort, page, consoleId],
  );
  const scale = useCall(
    (client) => loadScoreScale(client, { period, console_id: consoleId }),
    [period, consoleId],
  );
  const consoleRecord = consoles.data?.data.find((c) => c.id === consoleId);
  const download = () => {
    if (rows.status !== "ok") return;
    const name = csvFileName(
      "leaderboard",
      consoleRecord?.slug ?? "",
      period,
      sort,
      page > 1 ? `page-${page}` : "",
      rows.data.meta.period_date,
    );
    downloadCsv(name, leaderboardCsv(rows.data.data));
  };
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <section aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">Liquidity leaderboard</h2>
      <p className="lead">Games buyers are reaching for, scored 0–100 by demand and price accessibility.</p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Console{" "}
          <select
            value={consoleId ?? ""}
            onChange={(e) => filter(setConsoleId)(e.target.value ? Number(e.target.value) : undefined)}
          >
            <option value="">All consoles</option>
            {consoles.data?.data.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <PeriodSelect value={period} onChange={filter(setPeriod)} />
        <label>
          Sort by{" "}
          <select value={sort} onChange={(e) => filter(setSort)(e.target.value as typeof sort)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        {rows.status === "ok" && rows.data.data.length > 0 ? (
          <button type="button" className="secondary" onClick={download}>
            Download CSV
          </button>
        ) : null}
      </form>
      <ScoreLegend
        scale={scale.data}
        scope={`on ${consoleRecord?.name ?? "all consoles"}, ${periodLabel(period).toLowerCase()}`}
      />
      {rows.status === "loading" ? <Loading what="the leaderboard" /> : null}
      {rows.status === "error" ? <ErrorNotice error={rows.error} retry={rows.retry} /> : null}
      {rows.status === "ok" && rows.data.data.length === 0 ? (
        <Empty>No game had buyer demand in this period{consoleId ? " on this console" : ""}.</Empty>
      ) : null}
      {rows.status === "ok" && rows.data.data.length > 0 ? (
        <>
          <TableWrap label="Leaderboard">
            <table>
              <caption className="sr-only">
                Leaderboard for {rows.data.meta.period}, data of {rows.data.meta.period_date}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Rank</th>
                  <th scope="col">Game</th>
                  <th scope="col">Score</th>
                  <th scope="col" className="wide">
                    Redirects
                  </th>
                  <th scope="col" className="wide">
                    Momentum
                  </th>
                  <th scope="col">Complete</th>
                </tr>
              </thead>
              <tbody>
                {rows.data.data.map((row) => (
                  <tr key={row.game.id}>
                    <td>{row.rank}</td>
                    <td>
                      <a href={hrefOf({ page: "game", id: row.game.id })}>{row.game.name}</a>
                      <small>{row.game.console_name}</small>
                    </td>
                    <td>
                      <Score value={row.liquidity_score} scale={scale.data} />
                    </td>
                    <td className="wide">{formatCount(row.demand.redirects)}</td>
                    <td className="wide">
                      <span className={`momentum ${row.momentum.label}`}>{row.momentum.label}</span>
                    </td>
                    <td>{formatPrice(row.pricing.complete)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <SnapshotFooter meta={rows.data.meta} onPage={setPage} />
        </>
      ) : null}
    </section>
  );
};
