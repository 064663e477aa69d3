import { declareTable } from "./table.js";

/**
 * The catalog's runs of unchanged prices (schema.prisma, `PriceObservation`): written in batches by
 * the catalog import (data/price-observations.ts), read by the history route.
 */
export const PRICE_OBSERVATIONS = declareTable({
  name: "price_observations",
  columns: [
    { name: "game_id", type: "int4" },
    { name: "observed_at", type: "timestamptz" },
    { name: "last_observed_at", type: "timestamptz" },
    { name: "price_loose", type: "numeric", nullable: true },
    { name: "price_complete", type: "numeric", nullable: true },
    { name: "price_new", type: "numeric", nullable: true },
  ],
});
