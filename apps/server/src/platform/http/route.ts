import { ok, type RouteDef } from '@pfp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the request as the contract's schemas parsed it. */
export interface RouteInput<R extends RouteDef> {
  body: Parsed<R['body']>;
  query: Parsed<R['querystring']>;
  req: FastifyRequest;
}

/**
 * Registers a call of the contract: its schemas validate the request and encode the answer, and
 * describe it in the OpenAPI document. The handler returns the `data` of `{ result: 'ok', data }`;
 * failures are thrown (domain errors, mapped in http/errors.ts).
 */
export function serve<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (input: RouteInput<R>) => Promise<z.output<R['response']>> | z.output<R['response']>,
  opts: { tags?: string[] } = {},
) {
  app.route({
    method: def.method,
    url: def.path,
    schema: {
      ...(def.body ? { body: def.body } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      response: { 200: ok(def.response) },
      ...(opts.tags ? { tags: opts.tags } : {}),
    },
    handler: async (req) => ({
      result: 'ok' as const,
      data: await handler({ body: req.body as RouteInput<R>['body'], query: req.query as RouteInput<R>['query'], req }),
    }),
  });
}
