import { z } from 'zod';
import { badRequest } from './errors';

/**
 * Parses a request body with a zod schema; the first problem becomes a 400 whose Chinese
 * message names the field (schemas carry their own Chinese messages).
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  // Schemas carry Chinese messages; zod's own English defaults become a generic Chinese one.
  const message = /[\u4e00-\u9fff]/.test(issue.message)
    ? issue.message
    : issue.code === 'invalid_type' && issue.input === undefined
      ? `缺少参数 ${field}`
      : `参数 ${field} 无效`;
  throw badRequest(message, field || undefined);
}

/** A positive integer id given as a number or a numeric string. */
export const idSchema = (name: string) =>
  z.coerce
    .number({ message: `${name} 必须是整数` })
    .int({ message: `${name} 必须是整数` })
    .positive({ message: `${name} 必须是正整数` })
    .max(2 ** 31 - 1, { message: `${name} 超出范围` });
