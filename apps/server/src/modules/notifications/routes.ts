import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { markRead, readNotifications } from './inbox';
import { notifyFills } from './notify';
import { watchReminders } from './reminders';
import { webhookDeliveriesView } from './views';
import { allowPrivateFromEnv, readWebhook, setWebhook, webhookWorker } from './webhooks';
import { NOTIFICATIONS_SQL } from './sql';
import { testWebhook } from './testMessage';

/** Notifications and outbound webhooks (docs/notifications.md). The producers call notify.ts in their transactions. */
export const notifications: Capability = {
  sql: NOTIFICATIONS_SQL,
  trader(app, ctx, trader) {
    const tags = ['trader'];
    const db = ctx.db;
    const reader = async (req: Parameters<typeof trader.tenantOf>[0]) =>
      ({ tenantId: await trader.tenantOf(req), audience: 'trader' }) as const;
    serve(app, traderApi.notifications, async ({ req, body }) => readNotifications(db, await reader(req), body), {
      tags,
    });
    serve(app, traderApi.markNotificationsRead, async ({ req, body }) => markRead(db, await reader(req), body), {
      tags,
    });
    serve(app, traderApi.webhook, async ({ req }) => readWebhook(db, await trader.tenantOf(req)), { tags });
    serve(
      app,
      traderApi.setWebhook,
      async ({ req, body }) =>
        setWebhook(db, ctx.secrets, await trader.tenantOf(req), trader.sub(req), body, allowPrivateFromEnv()),
      { tags },
    );
    serve(
      app,
      traderApi.testWebhook,
      async ({ req }) => testWebhook(db, ctx.secrets, await trader.tenantOf(req), allowPrivateFromEnv()),
      { tags },
    );
    serve(app, traderApi.webhookDeliveries, async ({ req, body }) => trader.view(req, webhookDeliveriesView, body), {
      tags,
    });
  },

  pricer(app, ctx, pricer) {
    const tags = ['pricer'];
    const reader = (req: Parameters<typeof pricer.who>[0]) => {
      const { tenantId, pricerId } = pricer.who(req);
      return { tenantId, pricerId, audience: 'pricer' } as const;
    };
    serve(app, pricerApi.notifications, async ({ req, body }) => readNotifications(ctx.db, reader(req), body), {
      tags,
    });
    serve(app, pricerApi.markNotificationsRead, async ({ req, body }) => markRead(ctx.db, reader(req), body), {
      tags,
    });
  },
  // Fills told in their booking's transaction.
  trading: { fillsBooked: notifyFills },
  jobs(ctx) {
    // The deadline reminders every 10 minutes (the first run at start-up, not awaited), the webhook
    // outbox swept every second off the request path.
    const reminders = watchReminders({ db: ctx.db, logger: ctx.logger });
    return [
      { start: async () => void reminders.runOnce(), stop: () => reminders.stop() },
      webhookWorker({ db: ctx.db, secrets: ctx.secrets, logger: ctx.logger.child({ module: 'webhooks' }) }),
    ];
  },
};
