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

const ACCEPTED = Symbol('accepted');
/** A call the approval policy held (issue 42): answered 202 `{ request_id, status: 'pending' }`, nothing changed yet. */
export interface Accepted {
  [ACCEPTED]: true;
  request_id: number;
}
export const accepted = (requestId: number): Accepted => ({ [ACCEPTED]: true, request_id: requestId });
const isAccepted = (v: unknown): v is Accepted => typeof v === 'object' && v !== null && ACCEPTED in v;

/**
 * Registers a call of the contract: its schemas validate the request and encode the answer, and
 * describe it in the OpenAPI document. The handler returns the `data` of `{ result: 'ok', data }`;
 * failures are thrown (domain errors, mapped in http/errors.ts).
 */
export function serve<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (input: RouteInput<R>) => Promise<z.output<R['response']> | Accepted> | z.output<R['response']>,
  opts: { tags?: string[] } = {},
) {
  app.route({
    method: def.method,
    url: def.path,
    schema: {
      ...(def.body ? { body: def.body } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      response: { 200: ok(def.response), ...(def.accepted ? { 202: ok(def.accepted) } : {}) },
      ...(opts.tags ? { tags: opts.tags } : {}),
    },
    handler: async (req, reply) => {
      const data = await handler({
        body: req.body as RouteInput<R>['body'],
        query: req.query as RouteInput<R>['query'],
        req,
      });
      if (!isAccepted(data)) return { result: 'ok' as const, data };
      if (!def.accepted) throw new Error(`${def.path} cannot answer 202: its route declares no \`accepted\``);
      reply.code(202);
      return { result: 'ok' as const, data: { request_id: data.request_id, status: 'pending' as const } };
    },
  });
}
