-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "paid_fingerprint" TEXT;
