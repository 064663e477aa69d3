-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "claim_token" UUID;
