import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/api/docs/openapi.json';

/**
 * The OpenAPI document of the API, generated from the routes' contract schemas (so it cannot
 * drift from what the server checks). Register before the routes: it collects them as they come.
 */
export async function openApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: '快期点价宝 API', version: '1.0.0', description: 'SPEC §7 / ARCHITECTURE §4 的 HTTP 接口' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
