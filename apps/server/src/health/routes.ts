import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', async () => ({
    result: 'ok',
    data: { status: 'ok', uptime_s: Math.round(process.uptime()) },
  }));
}
