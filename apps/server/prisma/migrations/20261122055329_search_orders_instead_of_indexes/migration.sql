-- DropIndex
DROP INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_mome_idx";

-- DropIndex
DROP INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_unme_idx";

-- CreateTable
CREATE TABLE "search_snapshot_orders" (
    "snapshot_id" INTEGER NOT NULL,
    "scope_console_id" INTEGER NOT NULL,
    "sort" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "volume_ranks" INTEGER[],

    CONSTRAINT "search_snapshot_orders_pkey" PRIMARY KEY ("snapshot_id","scope_console_id","sort","page")
);

-- Backfill: the orders of the snapshots computed before this migration (data/search-orders.ts).
INSERT INTO "search_snapshot_orders" ("snapshot_id", "scope_console_id", "sort", "page", "volume_ranks")
SELECT "snapshot_id", "scope_console_id", 'momentum', ("rank_momentum" - 1) / 1000,
  array_agg("rank_volume" ORDER BY "rank_momentum")
FROM "search_snapshot_rows" WHERE "rank_momentum" IS NOT NULL
GROUP BY "snapshot_id", "scope_console_id", ("rank_momentum" - 1) / 1000;

INSERT INTO "search_snapshot_orders" ("snapshot_id", "scope_console_id", "sort", "page", "volume_ranks")
SELECT "snapshot_id", "scope_console_id", 'unmet', ("rank_unmet" - 1) / 1000,
  array_agg("rank_volume" ORDER BY "rank_unmet")
FROM "search_snapshot_rows" WHERE "rank_unmet" IS NOT NULL
GROUP BY "snapshot_id", "scope_console_id", ("rank_unmet" - 1) / 1000;
