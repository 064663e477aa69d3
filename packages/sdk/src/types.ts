export type * from "./internal/route-types.js";
