import { validationFailed } from "../errors.js";
import type { PageRequest } from "./page.js";

/**
 * Analytics cursors hold [snapshot date, rank]: a walk keeps reading the snapshot it started on
 * even when a newer rollup lands meanwhile, so its pages never shift. The links pin the same date.
 */
const cursorDate = (request: PageRequest): string | undefined => {
  if (request.mode !== "cursor" || request.after === null) return undefined;
  const [date] = request.after;
  return typeof date === "string" ? date : undefined;
};

/**
 * The date a list page reads: the one asked, else the cursor's. A cursor walks one snapshot: asked
 * with another `date`, the walk must start again.
 */
export const dateOfWalk = (request: PageRequest, date: string | undefined): string | undefined => {
  const started = cursorDate(request);
  if (started !== undefined && date !== undefined && started !== date) {
    throw validationFailed(
      "query",
      "cursor",
      `walks the data of ${started}, not of date ${date}; restart from the first page`,
    );
  }
  return date ?? started;
};
