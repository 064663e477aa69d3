import type { ConditionRecommendation } from "@gmi/sdk";
import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Loading } from "../components/Pager.js";
import { Score } from "../components/Score.js";
import { TableWrap } from "../components/TableWrap.js";
import { formatCount, formatPrice, formatShare } from "../format.js";
import { loadScoreScale, topPercent } from "../score-scale.js";
import { useCall } from "../use-call.js";
import { GameHistory } from "./GameHistory.js";
import { PeriodSelect, type PeriodValue, periodLabel } from "./Leaderboard.js";

const CONDITION_NAMES = { loose: "Loose", cib: "Complete in box", new: "New" } as const;

/** What to tell a seller about listing conditions, including why there is no advice. */
export const adviceOf = (advice: ConditionRecommendation, span: string): string => {
  if (advice.recommended)
    return `List it ${CONDITION_NAMES[advice.recommended].toLowerCase()}: that is where demand meets a price.`;
  if (advice.conditions.every((c) => c.price === null))
    return "No catalog price for this game, so no condition to recommend.";
  return (
    `Too little demand to tell which condition sells: ${formatCount(advice.sample_size)} of the ` +
    `${formatCount(advice.min_sample_size)} redirects, watchlist alerts and searches needed, ${span.toLowerCase()}. ` +
    "The scores below describe the demand there is."
  );
};

/** One game: its score and the parts it is made of, the condition to list it in, and how it moved. */
export const Game = ({ id }: { id: number }) => {
  const [period, setPeriod] = useState<PeriodValue>("7d");
  const label = periodLabel(period);
  const profile = useCall((client) => client.intelligence.get(id, { period }), [id, period]);
  const conditions = useCall((client) => client.intelligence.conditions(id, { period }), [id, period]);
  // The profile's rank is on the all-consoles leaderboard of the period: its scale colours the score.
  const scale = useCall((client) => loadScoreScale(client, { period }), [period]);

  if (profile.status === "loading") return <Loading what="the game" />;
  if (profile.status === "error") return <ErrorNotice error={profile.error} retry={profile.retry} />;
  const p = profile.data.data;
  const total = scale.data?.total;
  return (
    <section aria-labelledby="game-title">
      <p>
        <a href="#/leaderboard">← Leaderboard</a>
      </p>
      <h2 id="game-title">{p.game.name}</h2>
      <p className="lead">
        {p.game.console_name} ·{" "}
        {p.rank === null
          ? "not on the leaderboard (no redirects)"
          : total
            ? `#${p.rank} of ${formatCount(total)} on the leaderboard (${topPercent(p.rank, total)})`
            : `#${p.rank} on the leaderboard`}
      </p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <PeriodSelect value={period} onChange={setPeriod} />
      </form>
      <div className="cards">
        <div className="card">
          <h3>Liquidity score</h3>
          <p className="big">
            <Score value={p.liquidity_score} scale={scale.data} />
          </p>
          <p className="meta">
            {label}, all consoles; data of {profile.data.meta.period_date}
          </p>
        </div>
        <div className="card">
          <h3>Demand, {label.toLowerCase()}</h3>
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
          <h3>Catalog price now</h3>
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
          <p className="advice">{adviceOf(conditions.data.data, label)}</p>
          <TableWrap label="Conditions to list in">
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
                    className={c.condition === conditions.data.data.recommended ? "recommended" : undefined}
                  >
                    <td>
                      {CONDITION_NAMES[c.condition]}
                      {c.condition === conditions.data.data.recommended ? <small>recommended</small> : null}
                    </td>
                    <td>{formatPrice(c.price)}</td>
                    <td>{formatShare(c.demand.share)}</td>
                    <td>{c.score}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      ) : null}
      <GameHistory id={id} />
    </section>
  );
};
