import type { contract } from "@gmi/contract";
import { toConsoleRecord } from "../domain/catalog/records.js";
import { pageMeta } from "./meta.js";
import { listPaging } from "./pages.js";
import type { Read } from "./read.js";

/** `GET /consoles`: consoles, by name. */
export const list: Read<typeof contract.consoles.list> = async (reads, { query }, caller) => {
  const paging = listPaging(reads, caller, query, { route: "consoles.list", scope: {} });
  const page = paging.page(
    await reads.catalog.listConsoles(paging.request),
    (r) => [r.name, r.id],
    toConsoleRecord,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};
