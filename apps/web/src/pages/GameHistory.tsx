import type { GameHistory as History } from "@gmi/sdk";
import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { LineChart } from "../components/LineChart.js";
import { Empty, Loading } from "../components/Pager.js";
import { TableWrap } from "../components/TableWrap.js";
import { csvFileName, downloadCsv } from "../csv.js";
import { historyCsv, historyDays } from "../export.js";
import { formatChange, formatCount, formatPrice } from "../format.js";
import { useCall } from "../use-call.js";

const RANGES = [30, 60, 90] as const;
const CONDITIONS = [
  ["loose", "Loose"],
  ["complete", "Complete"],
  ["new", "New"],
] as const;
/** The daily figures: each point is one day's own activity (the `day` snapshots), hence "per day". */
const DEMAND_CHARTS = [
  ["Liquidity score", "liquidity_score", 100],
  ["Demand index", "demand_index", 1],
  ["Redirects per day", "redirects", 0],
  ["Distinct buyers per day", "distinct_users", 0],
  ["Watchlist alerts active each day", "watch_count", 0],
] as const;

const dollars = (n: number) => `$${Math.round(n).toLocaleString("en-US")}`;

/** How the game's price and demand moved: the last 30, 60 or 90 computed days. */
export const GameHistory = ({ id }: { id: number }) => {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const history = useCall(
    async (client) => {
      // The last `days` computed dates: ask for the latest first, then widen from its `to`.
      const latest = await client.intelligence.history(id, { period: "day" });
      if (days === 30) return latest;
      const to = latest.meta.to;
      const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      return client.intelligence.history(id, { period: "day", from, to });
    },
    [id, days],
  );
  return (
    <>
      <h3>History</h3>
      <p className="meta">
        Day by day (UTC): each point is that day&apos;s own demand and score; prices as they stood at the
        day&apos;s end.
      </p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend className="sr-only">Range</legend>
          {RANGES.map((r) => (
            <label key={r} className="chip">
              <input type="radio" name="range" checked={days === r} onChange={() => setDays(r)} /> {r} days
            </label>
          ))}
        </fieldset>
        {history.status === "ok" ? (
          <button
            type="button"
            className="secondary"
            onClick={() =>
              downloadCsv(
                csvFileName(history.data.data.game.slug, "history", history.data.meta.to),
                historyCsv(history.data.data),
              )
            }
          >
            Download CSV
          </button>
        ) : null}
      </form>
      {history.status === "loading" ? <Loading what="the history" /> : null}
      {history.status === "error" ? <ErrorNotice error={history.error} retry={history.retry} /> : null}
      {history.status === "ok" ? <Charts history={history.data.data} to={history.data.meta.to} /> : null}
    </>
  );
};

const Charts = ({ history, to }: { history: History; to: string }) => {
  const { points, prices } = history;
  return (
    <>
      <PriceMoves history={history} to={to} />
      {points.length === 0 ? <Empty>No computed days in this range yet.</Empty> : null}
      {points.length === 1 ? (
        <p className="meta">
          Only one computed day so far: the lines grow as the daily rollup runs (an operator can fill past
          days with <code>gmi rollup --days 30</code>).
        </p>
      ) : null}
      <div className="charts">
        <LineChart
          title="Catalog price"
          step
          format={dollars}
          series={CONDITIONS.map(([field, name]) => ({
            name,
            points: prices.map((p) => ({ date: p.date, value: p[field] === null ? null : Number(p[field]) })),
          }))}
        />
        {points.length > 0
          ? DEMAND_CHARTS.map(([title, field, max]) => (
              <LineChart
                key={field}
                title={title}
                max={max}
                format={field === "demand_index" ? (n) => n.toFixed(2) : (n) => formatCount(Math.round(n))}
                series={[{ name: title, points: points.map((p) => ({ date: p.date, value: p[field] })) }]}
              />
            ))
          : null}
        <FiguresTable history={history} />
      </div>
    </>
  );
};

/** The price on the history's last day and how it moved over the 7 and 30 days before. */
const PriceMoves = ({ history, to }: { history: History; to: string }) => {
  const now = history.prices.at(-1);
  const spans = history.price_changes;
  return (
    <TableWrap label="Price changes">
      <table>
        <caption>Catalog price on {to}, and its change</caption>
        <thead>
          <tr>
            <th scope="col">Condition</th>
            <th scope="col">Price</th>
            {spans.map((s) => (
              <th key={s.days} scope="col">
                Over {s.days} days
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {CONDITIONS.map(([field, name]) => (
            <tr key={field}>
              <th scope="row">{name}</th>
              <td>{formatPrice(now?.[field])}</td>
              {spans.map((s) => (
                <td key={s.days} className={`change ${directionOf(s[field]?.change)}`}>
                  {formatChange(s[field])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
};

const directionOf = (change: string | undefined) =>
  change === undefined || Number(change) === 0 ? "flat" : change.startsWith("-") ? "down" : "up";

const FiguresTable = ({ history }: { history: History }) => (
  <details>
    <summary>The figures as a table</summary>
    <TableWrap label="Figures by day">
      <table>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Loose</th>
            <th scope="col">Complete</th>
            <th scope="col">New</th>
            <th scope="col">Score</th>
            <th scope="col">Demand index</th>
            <th scope="col">Redirects</th>
            <th scope="col">Buyers</th>
            <th scope="col">Watches</th>
          </tr>
        </thead>
        <tbody>
          {historyDays(history).map(({ date, point, prices }) => (
            <tr key={date}>
              <td>{date}</td>
              <td>{formatPrice(prices?.loose)}</td>
              <td>{formatPrice(prices?.complete)}</td>
              <td>{formatPrice(prices?.new)}</td>
              <td>{point ? point.liquidity_score : "—"}</td>
              <td>{point ? point.demand_index.toFixed(2) : "—"}</td>
              <td>{formatCount(point?.redirects)}</td>
              <td>{formatCount(point?.distinct_users)}</td>
              <td>{formatCount(point?.watch_count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  </details>
);
