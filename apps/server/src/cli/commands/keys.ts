import type { Scope } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import { getClient, getOrganization } from "../../data/accounts.js";
import { issueApiKey, listApiKeys, revokeApiKey } from "../../data/keys.js";
import type { Sql } from "../../data/sql.js";
import type { CommandResult } from "../io.js";
import { CliError, parseFlags, positiveInt } from "../io.js";

const DAY_MS = 86_400_000;

const parseScopes = (value: string | undefined): Scope[] => {
  const scopes = [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (scopes.length === 0) throw new CliError("usage", `--scopes needs at least one of ${SCOPES.join(", ")}`);
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (unknown.length)
    throw new CliError("usage", `unknown scope ${unknown.join(", ")}; known: ${SCOPES.join(", ")}`);
  return scopes as Scope[];
};

export const keysCreate = async (sql: Sql, args: string[], now: number): Promise<CommandResult> => {
  const flags = parseFlags(args, {
    org: { type: "string", required: true },
    client: { type: "string" },
    scopes: { type: "string", required: true },
    name: { type: "string" },
    "expires-in": { type: "string" },
  });
  const organizationId = positiveInt("org", flags.org);
  const clientId = flags.client === undefined ? null : positiveInt("client", flags.client);
  const scopes = parseScopes(flags.scopes);
  const expiresInDays =
    flags["expires-in"] === undefined ? null : positiveInt("expires-in", flags["expires-in"]);
  if (!(await getOrganization(sql, organizationId))) {
    throw new CliError("not_found", `no organization with id ${organizationId}`);
  }
  if (clientId !== null) {
    const client = await getClient(sql, clientId);
    if (!client || client.organization_id !== organizationId) {
      throw new CliError("not_found", `no API client with id ${clientId} in organization ${organizationId}`);
    }
  }
  const issued = await issueApiKey(sql, {
    organizationId,
    clientId,
    name: flags.name ?? "default",
    scopes,
    expiresAt: expiresInDays === null ? null : new Date(now + expiresInDays * DAY_MS),
  });
  return {
    json: { ...issued },
    text: [
      `Created key ${issued.id} "${issued.name}" for organization ${organizationId} (scopes: ${scopes.join(", ")})`,
      "The key is shown once; store it now:",
      issued.key,
    ],
  };
};

export const keysRevoke = async (sql: Sql, args: string[], now: number): Promise<CommandResult> => {
  const flags = parseFlags(args, { id: { type: "string", required: true } });
  const id = positiveInt("id", flags.id);
  const key = await revokeApiKey(sql, id, new Date(now));
  if (!key) throw new CliError("not_found", `no API key with id ${id}`);
  return {
    json: { ...key },
    text: [`Key ${key.id} (…${key.last_four}) revoked; servers stop accepting it within the auth cache TTL`],
  };
};

/** An instant to the minute, as an operator reads it: `2026-11-27 11:58Z`. */
const minuteOf = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")}Z`;

/**
 * One key a line: id, last four, name, scopes, created, expiry, last use (to the minute: servers
 * write it once a minute, data/key-use.ts) and revocation. Never prints keys or hashes: only what
 * identifies a key (id, name, last four).
 */
export const keysList = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  const flags = parseFlags(args, { org: { type: "string", required: true } });
  const organizationId = positiveInt("org", flags.org);
  if (!(await getOrganization(sql, organizationId))) {
    throw new CliError("not_found", `no organization with id ${organizationId}`);
  }
  const keys = await listApiKeys(sql, organizationId);
  return {
    json: { organization_id: organizationId, keys },
    text: keys.length
      ? keys.map((k) =>
          [
            `${String(k.id).padStart(5)}  …${k.last_four}  ${k.name}  [${k.scopes.join(",")}]`,
            `created ${minuteOf(k.created_at)}`,
            k.expires_at ? `expires ${minuteOf(k.expires_at)}` : "no expiry",
            k.last_used_at ? `last used ${minuteOf(k.last_used_at)}` : "never used",
            ...(k.revoked_at ? [`revoked ${minuteOf(k.revoked_at)}`] : []),
          ].join("  "),
        )
      : [`Organization ${organizationId} has no keys`],
  };
};
