import type { PlanLimits, Scope } from "@gmi/contract";
import { ApiError } from "../errors.js";

/** What a key resolves to: the key, its organization, its client and the organization's plan. */
export type KeyRecord = {
  keyId: number;
  keyName: string;
  lastFour: string;
  scopes: Scope[];
  expiresAt: number | null;
  revokedAt: number | null;
  organization: { id: number; name: string; status: string };
  client: { id: number; status: string } | null;
  plan: PlanLimits;
};

export type AuthContext = KeyRecord;

/**
 * The authorization decision, in the spec's order: a key that is unknown, revoked or expired is a
 * 401; a known key of an inactive organization or client is a 403 account_inactive; a key without
 * the route's scope is a 403 insufficient_scope. `requiredScope` null: any valid key.
 */
export const authorize = (
  record: KeyRecord | null,
  requiredScope: Scope | null,
  now: number,
): AuthContext => {
  if (!record) throw new ApiError("unauthorized", "The API key is not valid");
  if (record.revokedAt !== null && record.revokedAt <= now) {
    throw new ApiError("unauthorized", "The API key has been revoked");
  }
  if (record.expiresAt !== null && record.expiresAt <= now) {
    throw new ApiError("unauthorized", "The API key has expired");
  }
  if (record.organization.status !== "active") {
    throw new ApiError("account_inactive", `The organization is ${record.organization.status}`, {
      subject: "organization",
      status: record.organization.status,
    });
  }
  if (record.client && record.client.status !== "active") {
    throw new ApiError("account_inactive", `The API client is ${record.client.status}`, {
      subject: "api_client",
      status: record.client.status,
    });
  }
  if (requiredScope !== null && !record.scopes.includes(requiredScope)) {
    throw new ApiError("insufficient_scope", `This endpoint needs the scope ${requiredScope}`, {
      required_scope: requiredScope,
    });
  }
  return record;
};
