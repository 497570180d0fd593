// The webhook calls of core's contract. Owners only; until this server keeps endpoints, a client has none.
import type { FastifyInstance } from 'fastify';
import { WEBHOOK_MESSAGES } from '@portal/core';
import { defineCall } from './define';
import { requireOwner } from '../access';
import { clientView } from '../views';
import { conflict, notFound } from '../errors';
import type { Services } from '../services';

export function webhookRoutes(app: FastifyInstance, s: Services) {
  const none = () => {
    throw notFound('Webhook endpoint');
  };
  defineCall(app, s, 'webhookList', {}, async ({ caller, query }) => {
    const client = await requireOwner(s.db, caller, query.client, WEBHOOK_MESSAGES.ownersOnly);
    return { client: clientView(client), webhook: { list: [], next: null } };
  });
  defineCall(app, s, 'webhookCreate', {}, async ({ caller, body }) => {
    await requireOwner(s.db, caller, body.client, WEBHOOK_MESSAGES.ownersOnly);
    throw conflict('This server does not send webhooks yet.');
  });
  defineCall(app, s, 'webhookShow', {}, none);
  defineCall(app, s, 'webhookUpdate', {}, none);
  defineCall(app, s, 'webhookRotate', {}, none);
  defineCall(app, s, 'webhookRemove', {}, none);
  defineCall(app, s, 'webhookTest', {}, none);
  defineCall(app, s, 'webhookDeliveries', {}, none);
  defineCall(app, s, 'webhookDelivery', {}, () => {
    throw notFound('Delivery');
  });
  defineCall(app, s, 'webhookRedeliver', {}, () => {
    throw notFound('Delivery');
  });
  defineCall(app, s, 'webhookListen', {}, async ({ caller, query }) => {
    await requireOwner(s.db, caller, query.client, WEBHOOK_MESSAGES.ownersOnly);
    throw conflict('This server does not send webhooks yet.');
  });
}
