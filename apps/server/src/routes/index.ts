import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { FastifyInstance } from "fastify";
import { accountRouter } from "./account.js";
import { consolesRouter } from "./consoles.js";
import type { RouteDeps } from "./context.js";
import { demandIntentRouter } from "./demand-intent.js";
import { gamesRouter } from "./games.js";
import { intelligenceRouter } from "./intelligence.js";
import { signalsRouter } from "./signals.js";

const s = initServer();

/** Every route of the contract; ts-rest's types make a missing handler a compile error. */
const contractRouter = (deps: RouteDeps) =>
  s.router(contract, {
    intelligence: intelligenceRouter(deps),
    demandIntent: demandIntentRouter(deps),
    games: gamesRouter(deps),
    consoles: consolesRouter(deps),
    account: accountRouter(deps),
    signals: signalsRouter(deps),
  });

/**
 * Registers the contract routes in their own encapsulated scope. ts-rest sets an error handler on
 * the instance it is given; confining it to this scope and making it rethrow leaves the root error
 * handler (plugins/errors.ts) the only one that writes error bodies.
 */
export const registerContractRoutes = async (app: FastifyInstance, deps: RouteDeps) => {
  await app.register(async (scope) => {
    s.registerRouter(contract, contractRouter(deps), scope, {
      logInitialization: false,
      jsonQuery: false,
      responseValidation: false,
      requestValidationErrorHandler: (error) => {
        throw error;
      },
    });
  });
};
