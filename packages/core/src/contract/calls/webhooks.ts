// Webhooks: a client's endpoints, their delivery log and the listen stream: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import { WEBHOOK_MESSAGES } from '../../rules/webhooks';
import {
  WebhookCreateBody,
  WebhookDeliveriesQuery,
  WebhookDeliveriesResponse,
  WebhookDeliveryQuery,
  WebhookDeliveryResponse,
  WebhookDeliveryShowResponse,
  WebhookIdBody,
  WebhookListQuery,
  WebhookListResponse,
  WebhookListenLine,
  WebhookListenQuery,
  WebhookQuery,
  WebhookRedeliverBody,
  WebhookResponse,
  WebhookSecretResponse,
  WebhookTestBody,
  WebhookUpdateBody,
} from '../webhooks';
import { Ok, call } from './common';

// ---- the calls ----
export const WEBHOOK_CALLS = {
  // Owners only; the refusals are the server's own sentences (an address it will not send to, too many endpoints).
  webhookList: call({
    method: 'GET',
    path: '/api/client/webhook/item',
    query: WebhookListQuery,
    response: WebhookListResponse,
    failure: WEBHOOK_MESSAGES.loadEndpoints,
  }),
  // Answers the signing secret this once.
  webhookCreate: call({ method: 'PUT', path: '/api/client/webhook/item', body: WebhookCreateBody, response: WebhookSecretResponse }),
  webhookShow: call({ method: 'GET', path: '/api/client/webhook/show', query: WebhookQuery, response: WebhookResponse }),
  // Rename, change the URL or the events, pause (active 0) or resume (active 1).
  webhookUpdate: call({ method: 'POST', path: '/api/client/webhook/update', body: WebhookUpdateBody, response: WebhookResponse }),
  // A new secret, answered once; the old one keeps signing beside it for WEBHOOK_ROTATION_HOURS.
  webhookRotate: call({ method: 'POST', path: '/api/client/webhook/rotate', body: WebhookIdBody, response: WebhookSecretResponse }),
  webhookRemove: call({ method: 'POST', path: '/api/client/webhook/remove', body: WebhookIdBody, response: Ok }),
  webhookTest: call({ method: 'POST', path: '/api/client/webhook/test', body: WebhookTestBody, response: WebhookDeliveryResponse }),
  webhookDeliveries: call({
    method: 'GET',
    path: '/api/client/webhook/delivery',
    query: WebhookDeliveriesQuery,
    response: WebhookDeliveriesResponse,
    failure: WEBHOOK_MESSAGES.loadDeliveries,
  }),
  webhookDelivery: call({
    method: 'GET',
    path: '/api/client/webhook/delivery/show',
    query: WebhookDeliveryQuery,
    response: WebhookDeliveryShowResponse,
  }),
  webhookRedeliver: call({
    method: 'POST',
    path: '/api/client/webhook/delivery/redeliver',
    body: WebhookRedeliverBody,
    response: WebhookDeliveryResponse,
  }),
  // A long-lived NDJSON stream (application/x-ndjson): each line a WebhookListenLine; the response schema is one line.
  webhookListen: call({
    method: 'GET',
    path: '/api/client/webhook/listen',
    query: WebhookListenQuery,
    response: WebhookListenLine,
    stream: 'application/x-ndjson',
  }),
} as const;
