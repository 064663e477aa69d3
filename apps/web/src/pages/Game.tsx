import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { LineChart } from "../components/LineChart.js";
import { Empty, Loading } from "../components/Pager.js";
import { formatCount, formatPrice, formatShare } from "../format.js";
import { useCall } from "../use-call.js";
import { PeriodSelect, type PeriodValue, Score } from "./Leaderboard.js";

const CONDITION_NAMES = { loose: "Loose", cib: "Complete in box", new: "New" } as const;
const RANGES = [30, 60, 90] as const;

/** One game: its score and the parts it is made of, the condition to list it in, and how it moved. */
export const Game = ({ id }: { id: number }) => {
  const [period, setPeriod] = useState<PeriodValue>("7d");
  const profile = useCall((client) => client.intelligence.get(id, { period }), [id, period]);
  const conditions = useCall((client) => client.intelligence.conditions(id, { period }), [id, period]);

  if (profile.status === "loading") return <Loading what="the game" />;
  if (profile.status === "error") return <ErrorNotice error={profile.error} retry={profile.retry} />;
  const p = profile.data.data;
  return (
    <section aria-labelledby="game-title">
      <p>
        <a href="#/leaderboard">← Leaderboard</a>
      </p>
      <h2 id="game-title">{p.game.name}</h2>
      <p className="lead">
        {p.game.console_name} ·{" "}
        {p.rank ? `#${p.rank} on the leaderboard` : "not on the leaderboard (no redirects)"}
      </p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <PeriodSelect value={period} onChange={setPeriod} />
      </form>
      <div className="cards">
        <div className="card">
          <h3>Liquidity score</h3>
          <p className="big">
            <Score value={p.liquidity_score} />
          </p>
          <p className="meta">Data of {profile.data.meta.period_date}</p>
        </div>
        <div className="card">
          <h3>Demand</h3>
          <dl>
            <dt>Demand index</dt>
            <dd>{p.demand.index.toFixed(2)}</dd>
            <dt>Redirects</dt>
            <dd>{formatCount(p.demand.redirects)}</dd>
            <dt>Distinct buyers</dt>
            <dd>{formatCount(p.demand.distinct_users)}</dd>
            <dt>Watchlist alerts</dt>
            <dd>{formatCount(p.demand.watch_count)}</dd>
            <dt>Momentum</dt>
            <dd>
              <span className={`momentum ${p.momentum.label}`}>{p.momentum.label}</span>
              {p.momentum.value === null ? "" : ` (×${p.momentum.value.toFixed(2)})`}
            </dd>
          </dl>
        </div>
        <div className="card">
          <h3>Price</h3>
          <dl>
            <dt>Loose</dt>
            <dd>{formatPrice(p.pricing.loose)}</dd>
            <dt>Complete</dt>
            <dd>{formatPrice(p.pricing.complete)}</dd>
            <dt>New</dt>
            <dd>{formatPrice(p.pricing.new)}</dd>
            <dt>Price accessibility</dt>
            <dd>{p.price_accessibility.toFixed(2)}</dd>
          </dl>
        </div>
      </div>

      <h3>Which condition to list</h3>
      {conditions.status === "loading" ? <Loading what="the condition advice" /> : null}
      {conditions.status === "error" ? (
        <ErrorNotice error={conditions.error} retry={conditions.retry} />
      ) : null}
      {conditions.status === "ok" ? (
        <>
          <p className="advice">
            {conditions.data.data.recommended
              ? `List it ${CONDITION_NAMES[conditions.data.data.recommended].toLowerCase()}: that is where demand meets a price.`
              : "No catalog price for this game, so no condition to recommend."}
          </p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Condition</th>
                  <th scope="col">Price</th>
                  <th scope="col">Share of demand</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {conditions.data.data.conditions.map((c) => (
                  <tr
                    key={c.condition}
                    aria-current={c.condition === conditions.data.data.recommended || undefined}
                  >
                    <td>{CONDITION_NAMES[c.condition]}</td>
                    <td>{formatPrice(c.price)}</td>
                    <td>{formatShare(c.demand.share)}</td>
                    <td>{c.score}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <History id={id} />
    </section>
  );
};

const History = ({ id }: { id: number }) => {
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
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend className="sr-only">Range</legend>
          {RANGES.map((r) => (
            <label key={r} className="chip">
              <input type="radio" name="range" checked={days === r} onChange={() => setDays(r)} /> {r} days
            </label>
          ))}
        </fieldset>
      </form>
      {history.status === "loading" ? <Loading what="the history" /> : null}
      {history.status === "error" ? <ErrorNotice error={history.error} retry={history.retry} /> : null}
      {history.status === "ok" && history.data.data.points.length === 0 ? (
        <Empty>No computed days in this range yet.</Empty>
      ) : null}
      {history.status === "ok" && history.data.data.points.length === 1 ? (
        <p className="meta">
          Only one computed day so far: the lines grow as the daily rollup runs (an operator can fill past
          days with <code>gmi rollup --days 30</code>).
        </p>
      ) : null}
      {history.status === "ok" && history.data.data.points.length > 0 ? (
        <div className="charts">
          {(
            [
              ["Liquidity score", "liquidity_score", 100],
              ["Demand index", "demand_index", 1],
              ["Redirects", "redirects", 0],
              ["Distinct buyers", "distinct_users", 0],
              ["Watchlist alerts", "watch_count", 0],
            ] as const
          ).map(([title, field, max]) => (
            <LineChart
              key={field}
              title={title}
              max={max}
              format={field === "demand_index" ? (n) => n.toFixed(2) : (n) => formatCount(Math.round(n))}
              points={history.data.data.points.map((point) => ({ date: point.date, value: point[field] }))}
            />
          ))}
          <details>
            <summary>The figures as a table</summary>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Score</th>
                    <th scope="col">Demand index</th>
                    <th scope="col">Redirects</th>
                    <th scope="col">Buyers</th>
                    <th scope="col">Watches</th>
                  </tr>
                </thead>
                <tbody>
                  {history.data.data.points.map((point) => (
                    <tr key={point.date}>
                      <td>{point.date}</td>
                      <td>{point.liquidity_score}</td>
                      <td>{point.demand_index.toFixed(2)}</td>
                      <td>{formatCount(point.redirects)}</td>
                      <td>{formatCount(point.distinct_users)}</td>
                      <td>{formatCount(point.watch_count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </div>
      ) : null}
    </>
  );
};
