import type { AuthContext } from "../domain/auth/authorize.js";

/**
 * Who asks, and the URL they asked at: what an answer depends on besides its query, its path
 * parameters and the data. Lists cap their pages at the plan's max_page_size and write their links
 * under `origin` (PUBLIC_BASE_URL when set, else the request's own origin) with the request's path
 * and query.
 */
export type Caller = { auth: AuthContext; origin: string; url: string };
