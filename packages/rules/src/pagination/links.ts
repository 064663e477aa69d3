import type { Links } from "@gmi/contract";
import type { PageTarget } from "./page.js";

/**
 * The query every link of a page repeats: each parameter as the request resolved it (defaults
 * filled in, `limit` as the effective page size), with `pinned` over them (a ranked list's snapshot
 * date). A walk that follows the links then reads the same list, in the same snapshot and page
 * size, whatever is rolled up or upgraded meanwhile. Only the position (`page` or `cursor`) is each
 * link's own (pageLink).
 */
export const linkQuery = (
  resolved: Record<string, unknown>,
  pinned: Record<string, string> = {},
): URLSearchParams => {
  const params = new URLSearchParams();
  // Absent parameters (undefined) stay absent.
  for (const [name, value] of Object.entries({ ...resolved, ...pinned })) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  return params;
};

/**
 * An absolute link to another page of the same list: only the position changes. A page link drops
 * `cursor`; a cursor link drops `page` and sets `paginate=cursor`.
 */
export const pageLink = (base: string, path: string, query: URLSearchParams, target: PageTarget): string => {
  const params = new URLSearchParams(query);
  if ("page" in target) {
    params.delete("cursor");
    params.set("page", String(target.page));
  } else {
    params.delete("page");
    params.set("paginate", "cursor");
    params.set("cursor", target.cursor);
  }
  return `${base}${path}?${params.toString()}`;
};

export const buildLinks = (
  base: string,
  path: string,
  query: URLSearchParams,
  targets: { next: PageTarget | null; prev: PageTarget | null },
): Links => ({
  next: targets.next ? pageLink(base, path, query, targets.next) : null,
  prev: targets.prev ? pageLink(base, path, query, targets.prev) : null,
});
