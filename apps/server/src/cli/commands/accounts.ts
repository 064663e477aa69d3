import { PLAN_SLUGS } from "@gmi/contract";
import type { AccountStatus } from "../../data/accounts.js";
import {
  createClient,
  createOrganization,
  listOrganizations,
  listPlans,
  setClientStatus,
  setOrganizationStatus,
} from "../../data/accounts.js";
import type { Sql } from "../../data/sql.js";
import type { CommandResult } from "../io.js";
import { CliError, oneOf, parseFlags, positiveInt } from "../io.js";

const STATUSES: readonly AccountStatus[] = ["active", "suspended"];

export const orgsCreate = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  const flags = parseFlags(args, {
    name: { type: "string", required: true },
    plan: { type: "string", required: true },
  });
  const plan = oneOf("plan", flags.plan, PLAN_SLUGS);
  const org = await createOrganization(sql, { name: flags.name ?? "", plan });
  return { json: { ...org }, text: [`Created organization ${org.id} "${org.name}" on plan ${org.plan}`] };
};

export const orgsList = async (sql: Sql, args: string[], now: number): Promise<CommandResult> => {
  parseFlags(args, {});
  const organizations = await listOrganizations(sql, new Date(now));
  if (organizations.length === 0) return { json: { organizations }, text: ["No organizations yet."] };
  const width = Math.max(4, ...organizations.map((o) => o.name.length));
  return {
    json: { organizations },
    text: [
      `${"ID".padStart(5)}  ${"NAME".padEnd(width)}  ${"PLAN".padEnd(10)}  ${"STATUS".padEnd(9)}  CLIENTS  KEYS  CREATED`,
      ...organizations.map(
        (o) =>
          `${String(o.id).padStart(5)}  ${o.name.padEnd(width)}  ${o.plan.padEnd(10)}  ${o.status.padEnd(9)}  ${String(o.clients).padStart(7)}  ${String(o.active_keys).padStart(4)}  ${o.created_at.toISOString().slice(0, 10)}`,
      ),
    ],
  };
};

export const orgsSetStatus = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  const flags = parseFlags(args, {
    id: { type: "string", required: true },
    status: { type: "string", required: true },
  });
  const id = positiveInt("id", flags.id);
  const status = oneOf("status", flags.status, STATUSES);
  const org = await setOrganizationStatus(sql, id, status);
  if (!org) throw new CliError("not_found", `no organization with id ${id}`);
  return { json: { ...org }, text: [`Organization ${org.id} is now ${org.status}`] };
};

export const clientsCreate = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  const flags = parseFlags(args, {
    org: { type: "string", required: true },
    name: { type: "string", required: true },
  });
  const organizationId = positiveInt("org", flags.org);
  const client = await createClient(sql, { organizationId, name: flags.name ?? "" });
  if (!client) throw new CliError("not_found", `no organization with id ${organizationId}`);
  return {
    json: { ...client },
    text: [`Created API client ${client.id} "${client.name}" in organization ${organizationId}`],
  };
};

export const clientsSetStatus = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  const flags = parseFlags(args, {
    id: { type: "string", required: true },
    status: { type: "string", required: true },
  });
  const id = positiveInt("id", flags.id);
  const status = oneOf("status", flags.status, STATUSES);
  const client = await setClientStatus(sql, id, status);
  if (!client) throw new CliError("not_found", `no API client with id ${id}`);
  return { json: { ...client }, text: [`API client ${client.id} is now ${client.status}`] };
};

export const plansList = async (sql: Sql, args: string[]): Promise<CommandResult> => {
  parseFlags(args, {});
  const plans = await listPlans(sql);
  const quota = (q: number | null) => (q === null ? "unmetered" : String(q));
  return {
    json: { plans },
    text: plans.map(
      (p) =>
        `${p.slug.padEnd(11)} ${String(p.rate_limit_per_minute).padStart(5)}/min ${String(p.rate_limit_per_day).padStart(8)}/day ` +
        `quota ${quota(p.monthly_quota).padStart(9)}  batch ${p.max_batch_size}  page ${p.max_page_size}${p.overage ? "  overage" : ""}`,
    ),
  };
};
