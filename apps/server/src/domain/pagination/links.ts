import type { Links } from "@gmi/contract";
import type { PageTarget } from "./page.js";

/**
 * An absolute link to another page of the same list: the request's own query parameters are kept
 * (filters, sort, limit) and only the position changes. A page link drops `cursor`; a cursor link
 * drops `page` and sets `paginate=cursor`.
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
