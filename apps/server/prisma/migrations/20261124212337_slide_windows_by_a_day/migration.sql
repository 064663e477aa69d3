-- AlterTable
ALTER TABLE "redirect_day_cells" DROP CONSTRAINT "redirect_day_cells_pkey",
ADD CONSTRAINT "redirect_day_cells_pkey" PRIMARY KEY ("day", "gap", "game_id");

-- AlterTable
ALTER TABLE "search_day_cells" DROP CONSTRAINT "search_day_cells_pkey",
ADD CONSTRAINT "search_day_cells_pkey" PRIMARY KEY ("day", "gap", "scope_console_id", "query");

-- AlterTable
ALTER TABLE "search_condition_day_cells" DROP CONSTRAINT "search_condition_day_cells_pkey",
ADD CONSTRAINT "search_condition_day_cells_pkey" PRIMARY KEY ("day", "gap", "game_id", "condition");

-- AlterTable
ALTER TABLE "snapshots" ADD COLUMN     "cells_version" BIGINT;

-- AlterTable
ALTER TABLE "search_snapshot_rows" ADD COLUMN     "mobile_count" INTEGER,
ADD COLUMN     "result_count_sum" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "condition_snapshot_rows" ADD COLUMN     "mobile_count" INTEGER;

-- CreateTable
CREATE TABLE "event_cell_rebuilds" (
    "version" BIGSERIAL NOT NULL,
    "family" TEXT NOT NULL,
    "first_day" DATE,
    "last_day" DATE,

    CONSTRAINT "event_cell_rebuilds_pkey" PRIMARY KEY ("version")
);

-- Existing redirect and search cells are rebuilt at the next import or rollup, in the new
-- (day, gap) order.
INSERT INTO "event_cell_dirty" ("family", "day") VALUES ('redirect', NULL), ('search', NULL);
