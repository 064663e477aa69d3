-- AlterTable
ALTER TABLE "snapshots" ADD COLUMN     "day_has_events" BOOLEAN NOT NULL DEFAULT true;

-- Backfill: a snapshot of a date without a redirect or a search (rolled up before that day's events,
-- or of a date without any) is no longer anyone's default date (data/snapshots.ts, findSnapshot).
UPDATE "snapshots" s SET "day_has_events" =
  EXISTS (SELECT 1 FROM "redirect_events" r WHERE r."day" = s."date")
  OR EXISTS (SELECT 1 FROM "search_events" e WHERE e."day" = s."date");
