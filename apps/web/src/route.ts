import { useEffect, useState } from "react";

/** Hash routes (`#/game/101`): the server serves one index.html at /app, so no server-side routing. */
export type Route =
  | { page: "leaderboard" }
  | { page: "game"; id: number }
  | { page: "trending" }
  | { page: "unmet" }
  | { page: "account" };

export const parseRoute = (hash: string): Route => {
  const [, page, arg] = hash.replace(/^#/, "").split("/");
  const id = Number(arg);
  if (page === "game" && Number.isInteger(id) && id > 0) return { page: "game", id };
  if (page === "trending" || page === "unmet" || page === "account") return { page };
  return { page: "leaderboard" };
};

export const hrefOf = (route: Route): string =>
  route.page === "game" ? `#/game/${route.id}` : `#/${route.page}`;

export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(typeof location === "undefined" ? "" : location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
};
