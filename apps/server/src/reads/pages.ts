import type { PaginationQuery } from "@gmi/contract";
import { pagingWith } from "@gmi/rules/pagination/paging";
import type { CursorBinding } from "../domain/pagination/cursor.js";
import { decodeCursor, encodeCursor } from "../domain/pagination/cursor.js";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";

export type { Page } from "@gmi/rules/pagination/paging";

/** What a list read needs to page: the cursor secret and the time cursors are stamped and checked at. */
export type Paging = { cursorSecret: string; now: number };

/**
 * The paging of every list (catalog and analytics), the shared rules' (`pagingWith`, also the
 * mocks'), with cursors signed by the app's secret.
 */
export const pagingOf = (
  paging: Paging,
  caller: Caller,
  query: PaginationQuery & Record<string, unknown>,
  binding: CursorBinding,
) =>
  pagingWith(
    {
      codec: {
        encode: (b, position, now) => encodeCursor(paging.cursorSecret, b, position, now),
        decode: (b, token, now) => decodeCursor(paging.cursorSecret, b, token, now),
      },
      now: paging.now,
    },
    { maxPageSize: caller.auth.plan.max_page_size, origin: caller.origin, url: caller.url },
    query,
    binding,
  );

/** `pagingOf` at the read's time, with the app's cursor secret. */
export const listPaging = (
  reads: Pick<ReadDeps, "cursorSecret" | "clock">,
  caller: Caller,
  query: PaginationQuery & Record<string, unknown>,
  binding: CursorBinding,
) => pagingOf({ cursorSecret: reads.cursorSecret, now: reads.clock.now() }, caller, query, binding);
