import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Answers serialised by a compiled serializer (issue 33 item 5): each route's zod answer schema becomes JSON Schema
 * once (zod's toJSONSchema, the wire side: timestamps as date-time strings) and fast-json-stringify compiles it into a
 * function that writes exactly the declared fields. A zod encode per answer cost ~4× a JSON.stringify of the same
 * rows (docs/performance.md). Dates become ISO strings (fast-json-stringify's date-time is Date#toISOString), as the
 * timestamp codec's encode did. A schema that cannot be expressed (a transform, a custom check) keeps the zod encode.
 */
export const compiledSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const compiled = compile(route.schema);
  return compiled ?? zodSerializerCompiler(route);
};

/** The compiled writer of a zod schema, or undefined when its JSON Schema would not say the same thing. */
export function compile(schema: z.ZodType): ((data: unknown) => string) | undefined {
  let json: z.core.JSONSchema.BaseSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw', reused: 'inline' });
  } catch {
    return undefined;
  }
  delete json.$schema;
  if (isOpenViewPage(json as Json)) return writeViewPage;
  try {
    // zod's JSON Schema (draft 2020-12) is the document fast-json-stringify reads.
    const writer: (data: unknown) => string = fastJson(json as Parameters<typeof fastJson>[0]);
    return writer;
  } catch {
    return undefined;
  }
}

interface Json {
  properties?: Record<string, Json>;
  items?: Json;
  type?: unknown;
  additionalProperties?: unknown;
}

/**
 * A view's page whose rows are open records (the trader's and customer's view calls: the rows' columns vary with
 * grouping). fast-json-stringify can only JSON.stringify each value of an open record, slower than one
 * JSON.stringify of the rows (measured, bench/serializer.bench.ts); the envelope and the page keep their declared
 * fields, the rows are written as they are (a Date through its toJSON: the same ISO string).
 */
function isOpenViewPage(json: Json): boolean {
  const data = json.properties?.data;
  const row = data?.properties?.items?.items;
  return (
    Object.keys(json.properties ?? {}).join() === 'result,data' &&
    Object.keys(data?.properties ?? {}).join() === 'items,total_count' &&
    row?.type === 'object' &&
    row.properties === undefined &&
    row.additionalProperties !== undefined &&
    Object.keys(row.additionalProperties as object).length === 0
  );
}

function writeViewPage(answer: unknown): string {
  const { result, data } = answer as { result: unknown; data: { items: unknown[]; total_count: unknown } };
  return JSON.stringify({ result, data: { items: data.items, total_count: data.total_count } });
}
