import { useEffect, useState } from "react";
import { useRateLimit } from "../api.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Loading } from "../components/Pager.js";
import { formatCount, formatDuration } from "../format.js";
import { useCall } from "../use-call.js";

/**
 * The key's organization, plan, the day's and the month's usage (`/me`), and the minute window as
 * it moves (from the last answer's headers: the day window has its own source, `usage.day`).
 */
export const Account = () => {
  const me = useCall((client) => client.me(), []);
  if (me.status === "loading") return <Loading what="your account" />;
  if (me.status === "error") return <ErrorNotice error={me.error} retry={me.retry} />;
  const { organization, plan, api_key, usage } = me.data.data;
  const quota = usage.month.quota;
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <div className="cards">
        <div className="card">
          <h3>{organization.name}</h3>
          <dl>
            <dt>Status</dt>
            <dd>{organization.status}</dd>
            <dt>Key</dt>
            <dd>
              {api_key.name} (…{api_key.last_four})
            </dd>
            <dt>Scopes</dt>
            <dd>{api_key.scopes.join(", ")}</dd>
          </dl>
        </div>
        <div className="card">
          <h3>Plan: {plan.name}</h3>
          <dl>
            <dt>Per minute</dt>
            <dd>{formatCount(plan.rate_limit_per_minute)}</dd>
            <dt>Per day</dt>
            <dd>{formatCount(plan.rate_limit_per_day)}</dd>
            <dt>Monthly quota</dt>
            <dd>{quota === null ? "unmetered" : formatCount(quota)}</dd>
            <dt>Rows per page</dt>
            <dd>{plan.max_page_size}</dd>
            <dt>Batch size</dt>
            <dd>{plan.max_batch_size}</dd>
          </dl>
        </div>
        <div className="card" data-testid="day-usage">
          <h3>Today</h3>
          <p className="big">{formatCount(usage.day.used)}</p>
          <p>
            of {formatCount(usage.day.limit)} used today (UTC), resets in{" "}
            {formatDuration(usage.day.resets_in)}
          </p>
          <meter
            min={0}
            max={usage.day.limit}
            value={usage.day.used}
            aria-label="Share of the daily limit used"
          />
        </div>
        <div className="card">
          <h3>This month</h3>
          <p className="big">{formatCount(usage.month.used)}</p>
          <p>
            requests used{quota === null ? "" : ` of ${formatCount(quota)}`}; resets in{" "}
            {formatDuration(usage.month.resets_in)}
          </p>
          {quota === null ? null : (
            <meter
              min={0}
              max={quota}
              value={usage.month.used}
              aria-label="Share of the monthly quota used"
            />
          )}
        </div>
        <MinuteWindow />
      </div>
    </section>
  );
};

/** Live from the last answer's X-RateLimit-* headers, with the reset counting down. */
export const MinuteWindow = () => {
  const rateLimit = useRateLimit();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  if (!rateLimit) return null;
  const resetIn = Math.max(0, Math.ceil((rateLimit.resetAt - now) / 1_000));
  return (
    <div className="card" data-testid="rate-limit">
      <h3>This minute</h3>
      <p className="big">{formatCount(rateLimit.remaining)}</p>
      <p>
        of {formatCount(rateLimit.limit)} requests left; the window resets in {resetIn} s
      </p>
      <meter
        min={0}
        max={rateLimit.limit}
        value={rateLimit.remaining}
        aria-label="Requests left this minute"
      />
    </div>
  );
};
