import { type ApiResponse, responseOf } from "./api-call.js";
import type { Links, Pagination } from "./contract-types.js";
import { UnexpectedResponseError } from "./errors.js";
import { encodeResumeToken, type Position } from "./resume.js";
import type { ListParams, ListRouteName, ResponseOf, RowOf } from "./route-types.js";
import type { Answer, RequestOptions } from "./transport.js";

export interface ListOptions extends RequestOptions {
  /** A `resumeToken` from an earlier walk over the same list and parameters: start where it stopped. */
  resumeToken?: string | undefined;
  /** Stop iterating after this many pages. */
  maxPages?: number | undefined;
}

/** Every list envelope, as generic code sees it. */
interface WireList<N extends ListRouteName> {
  data: Array<RowOf<N>>;
  meta: ResponseOf<N>["meta"] & { pagination: Pagination };
  links: Links;
}

type PageFetcher<N extends ListRouteName> = (
  query: Record<string, unknown>,
  options: RequestOptions,
) => Promise<Answer<ResponseOf<N>>>;

/** @internal One list endpoint with fixed parameters, able to fetch any position of it. */
export class Walk<N extends ListRouteName> {
  constructor(
    readonly route: N,
    readonly params: ListParams<N> | undefined,
    readonly options: ListOptions,
    private readonly fetchPage: PageFetcher<N>,
  ) {}

  async request(position?: Position): Promise<Page<N>> {
    const query: Record<string, unknown> = { ...(this.params as object | undefined) };
    if (position) {
      if (position.limit !== undefined) query.limit = position.limit;
      if (position.date !== undefined) query.date = position.date;
      query.paginate = position.mode;
      // Left undefined rather than deleted (the URL leaves undefined out): `delete` would turn the
      // object into a slow dictionary on every page.
      query.page = position.mode === "page" ? position.page : undefined;
      query.cursor = position.mode === "cursor" ? position.cursor : undefined;
    }
    const answer = await this.fetchPage(query, this.options);
    return new Page(this, answer, position ?? positionOf(query));
  }
}

const positionOf = (query: Record<string, unknown>): Position => {
  const limit = query.limit as number | undefined;
  if (typeof query.cursor === "string") return { mode: "cursor", cursor: query.cursor, limit };
  if (query.paginate === "cursor") return { mode: "cursor", limit };
  return { mode: "page", page: Number(query.page ?? 1), limit };
};

/** One page of a list: the response body's `data`, `meta` and `links`, and the way to the next page. */
export class Page<N extends ListRouteName> implements AsyncIterable<RowOf<N>> {
  /** The rows of this page. */
  readonly data: Array<RowOf<N>>;
  /** The resolved parameters and `pagination` (`per_page` is the size the plan allowed). */
  readonly meta: ResponseOf<N>["meta"];
  /** URLs of the next and previous pages. */
  readonly links: Links;
  private readonly answer: Answer<unknown>;
  private answered: ApiResponse | undefined;
  /** @internal The position this page was fetched from. */
  readonly position: Position;
  private readonly walk: Walk<N>;

  /** @internal */
  constructor(walk: Walk<N>, answer: Answer<ResponseOf<N>>, position: Position) {
    this.walk = walk;
    const body = answer.body as unknown as WireList<N>;
    this.data = body.data;
    this.meta = body.meta;
    this.links = body.links;
    this.answer = answer;
    // An analytics list's snapshot, pinned from the first page on: this page's resume token and the
    // pages after it read the date this page was served from, even once a newer one is rolled up.
    const date = (body.meta as { period_date?: string }).period_date;
    this.position = date === undefined ? position : { ...position, date };
  }

  /** The HTTP answer this page came in: status, headers, request id, this request's rate-limit state. */
  get response(): ApiResponse {
    this.answered ??= responseOf(this.answer);
    return this.answered;
  }

  /** @internal */
  nextPosition(): Position | null {
    const { pagination } = this.meta as { pagination: Pagination };
    const { limit, date } = this.position;
    if (pagination.mode === "cursor") {
      return pagination.next_cursor ? { mode: "cursor", cursor: pagination.next_cursor, limit, date } : null;
    }
    // Page numbers count pages of the size served: asking that size again keeps them meaning the
    // same rows if the plan's page cap changes mid-walk (as the server's links do).
    return pagination.page < pagination.last_page
      ? { mode: "page", page: pagination.page + 1, limit: pagination.per_page, date }
      : null;
  }

  /** Whether a page follows this one. */
  hasNextPage(): boolean {
    return this.nextPosition() !== null;
  }

  /** Resumes after this page (store it once the page is processed); `null` on the last page. */
  get resumeToken(): string | null {
    const next = this.nextPosition();
    return next ? encodeResumeToken(this.walk.route, next) : null;
  }

  /** The page after this one; `null` on the last. */
  async nextPage(): Promise<Page<N> | null> {
    const next = this.nextPosition();
    return next ? this.walk.request(next) : null;
  }

  /** @internal */
  walkTo(position: Position): Promise<Page<N>> {
    return this.walk.request(position);
  }

  /** This page and every later one. */
  pages(options: { maxPages?: number | undefined } = {}): AsyncIterable<Page<N>> {
    return followPages(this, options.maxPages ?? this.walk.options.maxPages);
  }

  /** Every row of this page and the later ones. */
  async *[Symbol.asyncIterator](): AsyncIterator<RowOf<N>> {
    for await (const page of this.pages()) yield* page.data;
  }
}

/** The position after `page` (null at the end), refusing to loop on a repeated cursor or an empty page that claims more. */
export const following = <N extends ListRouteName>(page: Page<N>, seen: Set<string>): Position | null => {
  const next = page.nextPosition();
  if (!next) return null;
  const guard = (message: string) =>
    new UnexpectedResponseError({ message, status: 200, requestId: page.response.requestId });
  if (page.data.length === 0) throw guard("An empty page claims a next page; stopping to avoid a loop");
  if (next.mode === "cursor" && next.cursor) {
    if (seen.has(next.cursor)) throw guard("The API repeated a cursor; stopping to avoid a loop");
    seen.add(next.cursor);
  }
  return next;
};

/** Walks the pages from `first`. */
async function* followPages<N extends ListRouteName>(first: Page<N>, maxPages: number | undefined) {
  const seen = new Set<string>();
  let page = first;
  for (let count = 1; ; count++) {
    yield page;
    if (maxPages !== undefined && count >= maxPages) return;
    const next = following(page, seen);
    if (!next) return;
    page = await page.walkTo(next);
  }
}
