import type { WithResponse } from "./api-call.js";
import type { MaxPageSize } from "./contract-types.js";
import { following, type Page, type Walk } from "./pagination.js";
import { decodeResumeToken, encodeResumeToken, type Position } from "./resume.js";
import type { ListRouteName, RowOf } from "./route-types.js";

/** Bounds of `toArray()`. */
export interface ToArrayOptions {
  /** Required: a list can be long, and loading it all into memory should be a decision. */
  maxItems: number;
  /** Stop after this many pages. */
  maxPages?: number | undefined;
}

/**
 * Page size asked for when iterating without an explicit `limit`: the largest any plan serves. The
 * server caps it silently to the caller's plan and `meta.pagination.per_page` says what it used;
 * fewer, fuller pages mean fewer metered requests.
 */
const ITERATION_LIMIT: MaxPageSize = 200;

/**
 * What every list method returns: `await` it for the first page, `for await` it for every row across
 * pages (cursor mode unless `page`/`paginate: "page"` was asked for: stable under concurrent writes).
 * Nothing is sent until it is awaited or iterated, so iterating never pays for an unused first page.
 */
export class ListCall<N extends ListRouteName> implements PromiseLike<Page<N>>, AsyncIterable<RowOf<N>> {
  private first: Promise<Page<N>> | undefined;
  /** The walk's restart point: undefined before iterating, null once complete. */
  private position: Position | null | undefined;
  private readonly walk: Walk<N>;

  /** @internal */
  constructor(walk: Walk<N>) {
    this.walk = walk;
  }

  // biome-ignore lint/suspicious/noThenProperty: a lazy thenable, so `for await` never pays for an unused first request
  then<A = Page<N>, B = never>(
    onFulfilled?: ((page: Page<N>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const { resumeToken } = this.walk.options;
    this.first ??= this.walk.request(
      resumeToken ? decodeResumeToken(this.walk.route, resumeToken) : undefined,
    );
    return this.first.then(onFulfilled, onRejected);
  }

  /** The first page's failure, as a promise's `catch`. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<N> | B> {
    return this.then(undefined, onRejected);
  }

  /** The first page with the HTTP answer it came in (also `page.response`). */
  withResponse(): Promise<WithResponse<Page<N>>> {
    return this.then((page) => ({ data: page, response: page.response }));
  }

  /**
   * Where to restart this walk: the first page not yet fully yielded (so a restart repeats at most
   * that page's rows); `null` once the walk is complete.
   */
  get resumeToken(): string | null {
    const position = this.position === undefined ? this.start() : this.position;
    return position && encodeResumeToken(this.walk.route, position);
  }

  /** Every page from the first (or the resume token's), up to `maxPages`. */
  pages(options: { maxPages?: number | undefined } = {}): AsyncIterable<Page<N>> {
    const walk = this.walk;
    const start = this.start();
    return {
      async *[Symbol.asyncIterator]() {
        yield* (await walk.request(start)).pages(options);
      },
    };
  }

  /** Every row across pages, for `for await`. */
  [Symbol.asyncIterator](): AsyncIterator<RowOf<N>> {
    return this.rows();
  }

  /** Every row, up to `maxItems` (required). */
  async toArray(options: ToArrayOptions): Promise<Array<RowOf<N>>> {
    const { maxItems } = options;
    if (!Number.isInteger(maxItems) || maxItems < 0) throw new TypeError("toArray needs maxItems >= 0");
    const out: Array<RowOf<N>> = [];
    for await (const row of this.rows(maxItems, options.maxPages)) out.push(row);
    return out;
  }

  private start(maxItems?: number): Position {
    const { resumeToken } = this.walk.options;
    if (resumeToken) return decodeResumeToken(this.walk.route, resumeToken);
    const params = (this.walk.params ?? {}) as {
      limit?: number;
      page?: number;
      cursor?: string;
      paginate?: string;
    };
    const limit = params.limit ?? Math.min(ITERATION_LIMIT, Math.max(1, maxItems ?? ITERATION_LIMIT));
    if (params.cursor) return { mode: "cursor", cursor: params.cursor, limit };
    if (params.paginate === "page" || params.page !== undefined) {
      return { mode: "page", page: params.page ?? 1, limit };
    }
    return { mode: "cursor", limit };
  }

  private rows(maxItems?: number, maxPages?: number): RowIterator<N> {
    const start = this.start(maxItems);
    this.position = start;
    const pages = maxPages ?? this.walk.options.maxPages;
    return new RowIterator(this.walk, start, maxItems ?? Number.POSITIVE_INFINITY, pages, (position) => {
      this.position = position;
    });
  }
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * Rows across pages. A hand-written iterator rather than an async generator: a generator costs an
 * extra await per row (more with `yield*`), while here a row of the page in hand is one already
 * resolved promise, the least `for await` allows; only page boundaries wait for the network. See
 * bench/iterate.ts.
 */
class RowIterator<N extends ListRouteName> implements AsyncIterator<RowOf<N>> {
  private current: Page<N> | undefined;
  private rows: Array<RowOf<N>> = [];
  private index = 0;
  /** How far into `rows` may be handed out: the page's end, or less where `maxItems` stops. */
  private end = 0;
  /** Rows handed out from earlier pages. */
  private before = 0;
  private pages = 0;
  private readonly seen = new Set<string>();
  private finished = false;
  private pending: Promise<IteratorResult<RowOf<N>>> | undefined;

  constructor(
    private readonly walk: Walk<N>,
    private readonly start: Position,
    private readonly maxItems: number,
    private readonly maxPages: number | undefined,
    private readonly track: (position: Position | null) => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RowOf<N>> {
    return this;
  }

  next(): Promise<IteratorResult<RowOf<N>>> {
    // Calls made while a page is on its way queue behind it, in order, instead of fetching it twice.
    if (this.pending) return this.pending.then(() => this.next());
    if (this.index < this.end)
      return Promise.resolve({ done: false, value: this.rows[this.index++] as RowOf<N> });
    const pending = this.advance().finally(() => {
      this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  async return(): Promise<IteratorResult<RowOf<N>>> {
    this.finished = true;
    this.end = 0;
    return DONE;
  }

  private async advance(): Promise<IteratorResult<RowOf<N>>> {
    while (!this.finished) {
      let position: Position | null = this.start;
      if (this.current) {
        // Stopped inside a page by maxItems: the restart point stays at this page.
        if (this.index < this.rows.length) break;
        this.track(this.current.nextPosition());
        if (this.maxPages !== undefined && this.pages >= this.maxPages) break;
        position = following(this.current, this.seen);
      }
      if (!position || this.before + this.index >= this.maxItems) break;
      const page = await this.walk.request(position);
      this.pages++;
      this.current = page;
      this.before += this.index;
      this.rows = page.data;
      this.index = 0;
      this.end = Math.min(this.rows.length, this.maxItems - this.before);
      this.track(page.position);
      if (this.end > 0) return { done: false, value: this.rows[this.index++] as RowOf<N> };
    }
    this.finished = true;
    this.end = 0;
    return DONE;
  }
}
