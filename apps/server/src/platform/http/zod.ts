import { firstIssue, safeParseZh } from '@pfp/contract';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { invalid } from '../errors';
import { compiledSerializerCompiler } from './serializer';

/**
 * Validation with the contract's schemas and Chinese messages: the first problem becomes an
 * invalid-input domain error naming the field (a 400 through http/errors.ts). An absent body is
 * an empty object (bodiless POSTs of views and my-self); a `null` or non-object body is refused.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = safeParseZh(schema, httpPart === 'body' && data === undefined ? {} : data);
    if (result.success) return { value: result.data };
    const { message, field } = firstIssue(result.error);
    return { error: invalid(message, field) };
  };

/** Route schemas are zod: validated as above, answers written by their compiled serializer (serializer.ts). */
export function installZod(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializerCompiler);
}
