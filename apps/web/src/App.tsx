import { useCallback, useState } from "react";
import { ApiProvider, useRateLimit } from "./api.js";
import { KeyForm } from "./components/KeyForm.js";
import { formatCount } from "./format.js";
import { Account } from "./pages/Account.js";
import { Game } from "./pages/Game.js";
import { Leaderboard } from "./pages/Leaderboard.js";
import { Searches } from "./pages/Searches.js";
import { hrefOf, type Route, useRoute } from "./route.js";
import { type Credentials, forgetCredentials, loadCredentials, saveCredentials } from "./session.js";

const NAV: Array<{ route: Route; label: string }> = [
  { route: { page: "leaderboard" }, label: "Leaderboard" },
  { route: { page: "trending" }, label: "Trending" },
  { route: { page: "unmet" }, label: "Unmet" },
  { route: { page: "account" }, label: "Account" },
];

export const App = (props: { initial?: Credentials | null }) => {
  const [credentials, setCredentials] = useState<Credentials | null>(() =>
    props.initial === undefined ? loadCredentials() : props.initial,
  );
  const signOut = useCallback(() => {
    forgetCredentials();
    setCredentials(null);
  }, []);
  return (
    <div className="app">
      <header className="top">
        <h1>
          <a href="#/leaderboard">GMI</a> <span>seller dashboard</span>
        </h1>
        {credentials ? (
          <button type="button" className="link" onClick={signOut}>
            Sign out
          </button>
        ) : null}
      </header>
      {credentials ? (
        <ApiProvider credentials={credentials} signOut={signOut}>
          <Shell />
        </ApiProvider>
      ) : (
        <main>
          <KeyForm
            onSubmit={(value, keep) => {
              saveCredentials(value, keep);
              setCredentials(value);
            }}
          />
        </main>
      )}
    </div>
  );
};

const Shell = () => {
  const route = useRoute();
  return (
    <>
      <nav className="tabs" aria-label="Sections">
        {NAV.map((item) => (
          <a
            key={item.label}
            href={hrefOf(item.route)}
            aria-current={item.route.page === route.page ? "page" : undefined}
          >
            {item.label}
          </a>
        ))}
        <LimitBadge />
      </nav>
      <main>
        {route.page === "leaderboard" ? <Leaderboard /> : null}
        {route.page === "game" ? <Game key={route.id} id={route.id} /> : null}
        {route.page === "trending" ? <Searches key="trending" kind="trending" /> : null}
        {route.page === "unmet" ? <Searches key="unmet" kind="unmet" /> : null}
        {route.page === "account" ? <Account /> : null}
      </main>
    </>
  );
};

/** Requests left this minute, from the last answer's headers. */
const LimitBadge = () => {
  const rateLimit = useRateLimit();
  if (!rateLimit) return null;
  return (
    <span className="badge" data-testid="limit-badge">
      {formatCount(rateLimit.remaining)} of {formatCount(rateLimit.limit)} left this minute
    </span>
  );
};
