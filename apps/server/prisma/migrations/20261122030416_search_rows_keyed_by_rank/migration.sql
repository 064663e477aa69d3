-- DropIndex
DROP INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_volu_idx";

-- AlterTable
ALTER TABLE "search_snapshot_rows" DROP CONSTRAINT "search_snapshot_rows_pkey",
ADD CONSTRAINT "search_snapshot_rows_pkey" PRIMARY KEY ("snapshot_id", "scope_console_id", "rank_volume");
