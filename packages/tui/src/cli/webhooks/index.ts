// `portal webhooks`: a client's webhook endpoints (owners), their delivery log, and `listen` for a machine the portal
// cannot reach.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as create from './create';
import * as show from './show';
import * as rename from './rename';
import * as pause from './pause';
import * as resume from './resume';
import * as rotate from './rotate';
import * as remove from './remove';
import * as test from './test';
import * as deliveries from './deliveries';
import * as delivery from './delivery';
import * as redeliver from './redeliver';
import * as listen from './listen';

const webhooksNoun: NounOptions = {
  name: 'webhooks',
  summary: "The account's webhook endpoints (owners): events sent, signed, to your server; their delivery log",
  examples: [
    'portal webhooks create --url https://example.com/hooks --events run.finished,run.failed',
    'portal webhooks deliveries <id>',
    'portal webhooks listen --forward-to http://localhost:3000/hooks',
  ],
};

export const { register } = commands([
  webhooksNoun,
  [list, create, show, rename, pause, resume, rotate, remove, test, deliveries, delivery, redeliver, listen],
]);
