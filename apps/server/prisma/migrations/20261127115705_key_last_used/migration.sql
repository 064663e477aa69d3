-- When a server last admitted a request with each key, written once a minute per server in one
-- statement (data/key-use.ts), null until the key is first used.
-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "last_used_at" TIMESTAMPTZ(3);
