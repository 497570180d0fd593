// The app's services, built once per app: database, tokens, secrets, storage, mail, payments, jobs. Each route group is
// handed only those it uses (plugins/only.ts), its options' type naming them.
// Types only, from modules that do not import this one back (the payment provider's interface is declared here for that).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { DB } from './db/schema';
import type { Secrets } from './auth/secrets';
import type { Tokens } from './auth/tokens';
import type { Sessions } from './auth/sessions';
import type { Otp } from './auth/otp';
import type { Storage } from './storage/index';
import type { Mailer } from './mail/index';
import type { JobQueue } from './worker/queue';
import type { Metrics } from './metrics';
import type { DiskWatch } from './disk';

export interface Services {
  config: Config;
  db: Kysely<DB>;
  dbKind: 'embedded' | 'postgres';
  secrets: Secrets;
  tokens: Tokens;
  sessions: Sessions;
  /** Two-factor sign-in: secrets, recovery codes and the per-account count of wrong codes. */
  otp: Otp;
  storage: Storage;
  mailer: Mailer;
  payments: PaymentProvider;
  jobs: JobQueue;
  metrics: Metrics;
  /** Writes refused for want of disk space: counted, logged, and failing readiness until there is room again. */
  disk: DiskWatch;
  /** A consistent copy of the embedded database for `admin backup` (absent on PostgreSQL). */
  snapshot?: () => Promise<Blob>;
  /** `stopping`: draining (readiness fails, connections close after each response); `closed`: no new request is taken. */
  lifecycle: { stopping: boolean; closed: boolean };
}

/** The payment portal behind `billing.portalUrl` (the embedded page is billing/payments.ts). */
export interface PaymentProvider {
  /** Where the user pays the client's invoices. */
  portalUrl(client: string, base: string): string;
  /** Routes the provider needs on this server (a webhook, or the embedded page), with the services they use. */
  register(app: FastifyInstance, s: Pick<Services, 'db' | 'jobs'>): void;
}

export type { Caller } from './auth/caller';
