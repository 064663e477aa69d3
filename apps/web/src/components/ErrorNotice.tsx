import { GmiError } from "@gmi/sdk";
import { useEffect, useState } from "react";
import { useApi } from "../api.js";
import { formatDuration } from "../format.js";

/**
 * What a seller should read for each failure, and what they can do about it: a refused key leads
 * back to the key form, a quota points to its reset, a rate limit counts down and retries by itself,
 * a server error offers a retry and the request id to quote.
 */
export const ErrorNotice = ({ error, retry }: { error: unknown; retry: () => void }) => {
  const { signOut } = useApi();
  const e = error instanceof GmiError ? error : undefined;
  if (e?.status === 401)
    return (
      <Notice title="This API key was not accepted">
        <p>It may be mistyped, revoked or expired.</p>
        <button type="button" onClick={signOut}>
          Enter another key
        </button>
      </Notice>
    );
  if (e?.status === 402)
    return (
      <Notice title="Monthly quota used up">
        <p>
          Your plan&apos;s requests for this month are spent
          {e.retryAfter ? `; it resets in ${formatDuration(e.retryAfter)}` : ""}. Upgrade the plan to continue
          now.
        </p>
      </Notice>
    );
  if (e?.status === 403)
    return (
      <Notice title="This key may not read this">
        <p>{e.message}. Ask for a key with that scope.</p>
      </Notice>
    );
  if (e?.status === 429) return <RateLimited seconds={e.retryAfter ?? 1} retry={retry} />;
  if (e?.status === 404)
    return (
      <Notice title="Not found">
        <p>{e.message}</p>
      </Notice>
    );
  if (e?.status === 422)
    return (
      <Notice title="Those filters were refused">
        <p>{e.message}</p>
      </Notice>
    );
  const server = e?.status !== undefined && e.status >= 500;
  return (
    <Notice title={server ? "The service had a problem" : "Could not reach the service"}>
      <p>
        {server ? "Something failed on our side; trying again usually works." : "Check your connection."}
        {e?.requestId ? ` Request id: ${e.requestId}.` : ""}
      </p>
      <button type="button" onClick={retry}>
        Try again
      </button>
    </Notice>
  );
};

const Notice = (props: { title: string; children: React.ReactNode }) => (
  <div className="notice" role="alert">
    <strong>{props.title}</strong>
    {props.children}
  </div>
);

const RateLimited = ({ seconds, retry }: { seconds: number; retry: () => void }) => {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) {
      retry();
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1_000);
    return () => clearTimeout(timer);
  }, [left, retry]);
  return (
    <Notice title="Too many requests">
      <p aria-live="polite">
        Your plan&apos;s per-minute limit is reached. Retrying in <span className="countdown">{left}</span> s…
      </p>
    </Notice>
  );
};
