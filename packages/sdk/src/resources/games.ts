import type { ApiCall } from "../internal/api-call.js";
import type { Core } from "../internal/core.js";
import type { ListCall } from "../internal/list-call.js";
import type { ListOptions } from "../internal/pagination.js";
import type { ListParams, ResponseOf } from "../internal/route-types.js";
import type { RequestOptions } from "../internal/transport.js";

/** The game catalog (scope `games.read`). */
export class Games {
  private readonly core: Core;

  /** @internal */
  constructor(core: Core) {
    this.core = core;
  }

  /** `{id, display_game_name}`, alphabetical. */
  titles(params?: ListParams<"games.titles">, options?: ListOptions): ListCall<"games.titles"> {
    return this.core.list("games.titles", params, options);
  }

  /** `{id, marketplace_game_name}`, alphabetical. */
  slugs(params?: ListParams<"games.slugs">, options?: ListOptions): ListCall<"games.slugs"> {
    return this.core.list("games.slugs", params, options);
  }

  /** One game (404 for an unknown or disabled id). */
  get(id: number, options?: RequestOptions): ApiCall<ResponseOf<"games.byId">> {
    return this.core.get("games.byId", { id }, undefined, options);
  }

  /** Games with this slug, one per console; an empty `data` when none. */
  bySlug(slug: string, options?: RequestOptions): ApiCall<ResponseOf<"games.bySlug">> {
    return this.core.get("games.bySlug", { slug }, undefined, options);
  }

  /** Games with this display title (case-insensitive); an empty `data` when none. */
  byTitle(title: string, options?: RequestOptions): ApiCall<ResponseOf<"games.byTitle">> {
    return this.core.get("games.byTitle", { title }, undefined, options);
  }

  /** Games of one console, by name; an unknown console is an empty list. */
  byConsole(
    consoleId: number,
    params?: ListParams<"games.byConsole">,
    options?: ListOptions,
  ): ListCall<"games.byConsole"> {
    return this.core.list("games.byConsole", params, options, { console_id: consoleId });
  }
}
