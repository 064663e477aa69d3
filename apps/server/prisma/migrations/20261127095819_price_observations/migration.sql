-- CreateTable
CREATE TABLE "price_observations" (
    "game_id" INTEGER NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,
    "last_observed_at" TIMESTAMPTZ(3) NOT NULL,
    "price_loose" DECIMAL(12,2),
    "price_complete" DECIMAL(12,2),
    "price_new" DECIMAL(12,2),

    CONSTRAINT "price_observations_pkey" PRIMARY KEY ("game_id","observed_at")
);

-- AddForeignKey
ALTER TABLE "price_observations" ADD CONSTRAINT "price_observations_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The prices a catalog already holds become each game's first run, seen when its row was last
-- written (the latest moment they are known to hold): a later import that repeats them extends the
-- run, and one dated earlier does not replace them.
INSERT INTO "price_observations" ("game_id", "observed_at", "last_observed_at", "price_loose", "price_complete", "price_new")
SELECT "id", "updated_at", "updated_at", "price_loose", "price_complete", "price_new" FROM "games";
