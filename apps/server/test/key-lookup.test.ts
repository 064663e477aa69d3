import { describe, expect, it } from "vitest";
import { findKeyByHash, findKeysByHash, revokeApiKey } from "../src/data/keys.js";
import { hashApiKey } from "../src/domain/auth/api-key.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant, suspendOrganization } from "./helpers/tenant.js";

const db = useTestDatabase({ catalog: false });

describe("key lookups by hash", () => {
  it("many keys in one read give the same records as one at a time, unknown hashes absent", async () => {
    const sql = db().pool;
    const plain = await createTenant(sql, { plan: "pro" });
    const withClient = await createTenant(sql, { plan: "free", withClient: true });
    const revoked = await createTenant(sql);
    await revokeApiKey(sql, revoked.keyId, new Date("2026-01-02T00:00:00Z"));
    await suspendOrganization(sql, withClient.organizationId);
    const hashes = [plain, withClient, revoked].map((t) => hashApiKey(t.key));
    const unknown = hashApiKey(`gmi_live_${"A".repeat(43)}`);

    const many = await findKeysByHash(sql, [...hashes, unknown]);
    expect([...many.keys()].sort()).toEqual([...hashes].sort());
    for (const hash of hashes) expect(many.get(hash)).toEqual(await findKeyByHash(sql, hash));
    expect(many.get(hashes[0] ?? "")?.plan.slug).toBe("pro");
    expect(many.get(hashes[1] ?? "")?.organization.status).toBe("suspended");
    expect(many.get(hashes[1] ?? "")?.client?.id).toBe(withClient.clientId);
    expect(many.get(hashes[2] ?? "")?.revokedAt).toBe(Date.parse("2026-01-02T00:00:00Z"));
    expect((await findKeysByHash(sql, [unknown])).size).toBe(0);
  });
});
