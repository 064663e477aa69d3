import { initContract } from "@ts-rest/core";
import { paginatedEnvelope } from "../common/envelope.js";
import { PaginationQuerySchema } from "../common/pagination.js";
import { ConsoleRecordSchema } from "../common/rows.js";
import { meta } from "./shared.js";

const c = initContract();

export const consolesRoutes = c.router({
  list: {
    method: "GET",
    path: "/api/v1/consoles",
    query: PaginationQuerySchema,
    responses: { 200: paginatedEnvelope(ConsoleRecordSchema, {}) },
    summary: "Consoles, by name: the valid console_id values",
    metadata: meta({ scope: "games.read" }),
  },
});
