import type { FastifyInstance, FastifyPluginAsync } from "fastify";

/**
 * Marks a plugin as not encapsulated (what the fastify-plugin package does): its hooks and
 * decorators apply to the whole app, which is the point of a cross-cutting plugin.
 */
export const globalPlugin = <Options extends Record<string, unknown>>(
  name: string,
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
): FastifyPluginAsync<Options> =>
  Object.assign(plugin, {
    [Symbol.for("skip-override")]: true,
    [Symbol.for("fastify.display-name")]: name,
  }) as FastifyPluginAsync<Options>;
