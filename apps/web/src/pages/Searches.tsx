import type { Page } from "@gmi/sdk";
import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Empty, Loading, SnapshotFooter } from "../components/Pager.js";
import { TableWrap } from "../components/TableWrap.js";
import { formatCount, formatShare } from "../format.js";
import { useCall } from "../use-call.js";
import { PeriodSelect, type PeriodValue } from "./Leaderboard.js";

const COPY = {
  trending: {
    title: "Trending searches",
    lead: "What buyers search for more than before: stock it while it rises. Fastest rising first.",
    empty: "No search is rising in this period.",
  },
  unmet: {
    title: "Unmet searches",
    lead: "What buyers search for and do not find: demand nobody is serving yet. Most often unanswered first.",
    empty: "Every frequent search found results in this period.",
  },
} as const;

/** Search demand: trending (by momentum) or unmet (by the share of searches without results). */
export const Searches = ({ kind }: { kind: "trending" | "unmet" }) => {
  const [period, setPeriod] = useState<PeriodValue>("7d");
  const [page, setPage] = useState(1);
  const rows = useCall<Page<"demandIntent.trending"> | Page<"demandIntent.unmet">>(
    (client) =>
      kind === "unmet"
        ? client.searches.unmet({ period, page, limit: 20 })
        : client.searches.trending({ period, page, limit: 20 }),
    [kind, period, page],
  );
  const copy = COPY[kind];
  return (
    <section aria-labelledby="searches-title">
      <h2 id="searches-title">{copy.title}</h2>
      <p className="lead">{copy.lead}</p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <PeriodSelect
          value={period}
          onChange={(value) => {
            setPeriod(value);
            setPage(1);
          }}
        />
      </form>
      {rows.status === "loading" ? <Loading what="searches" /> : null}
      {rows.status === "error" ? <ErrorNotice error={rows.error} retry={rows.retry} /> : null}
      {rows.status === "ok" && rows.data.data.length === 0 ? <Empty>{copy.empty}</Empty> : null}
      {rows.status === "ok" && rows.data.data.length > 0 ? (
        <>
          <TableWrap label={copy.title}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Volume rank</th>
                  <th scope="col">Search</th>
                  <th scope="col">Searches</th>
                  <th scope="col">{kind === "unmet" ? "Without results" : "Momentum"}</th>
                  <th scope="col" className="wide">
                    Buyers
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.data.data.map((row) => (
                  <tr key={row.query}>
                    <td>{row.rank}</td>
                    <td>{row.query}</td>
                    <td>{formatCount(row.search.search_count)}</td>
                    <td>
                      {kind === "unmet" ? (
                        formatShare(row.results.zero_result_share)
                      ) : (
                        <span className={`momentum ${row.momentum.label}`}>
                          {row.momentum.value === null
                            ? row.momentum.label
                            : `×${row.momentum.value.toFixed(2)}`}
                        </span>
                      )}
                    </td>
                    <td className="wide">{formatCount(row.search.distinct_users)}</td>
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
