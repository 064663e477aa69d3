-- Usage flushes applied once (data/usage.ts): each flush records its id in the statement that adds
-- its counts, so a flush tried again after its answer was lost adds nothing the second time.
-- CreateTable
CREATE TABLE "usage_flushes" (
    "id" UUID NOT NULL,
    "flushed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_flushes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_flushes_flushed_at_idx" ON "usage_flushes"("flushed_at");
