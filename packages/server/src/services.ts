// The app's services, built once per app and handed to every route: database, tokens, secrets, storage, mail, payments, jobs.
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { DB } from './db/schema';
import type { Secrets } from './auth/secrets';
import type { Tokens } from './auth/tokens';
import type { Sessions } from './auth/sessions';
import type { Storage } from './storage/index';
import type { Mailer } from './mail/index';
import type { PaymentProvider } from './billing/payments';
import type { JobQueue } from './worker/queue';
import type { Metrics } from './metrics';

export interface Services {
  config: Config;
  db: Kysely<DB>;
  dbKind: 'embedded' | 'postgres';
  secrets: Secrets;
  tokens: Tokens;
  sessions: Sessions;
  storage: Storage;
  mailer: Mailer;
  payments: PaymentProvider;
  jobs: JobQueue;
  metrics: Metrics;
  /** A consistent copy of the embedded database for `admin backup` (absent on PostgreSQL). */
  snapshot?: () => Promise<Blob>;
  /** Set when the process begins to shut down: readiness fails from then on. */
  lifecycle: { stopping: boolean };
}

/** Who makes a call: a signed-in user, or a client API key acting for its own client. */
export type Caller =
  | { kind: 'user'; stamp: string; email: string; username: string; /** The session the call's token names. */ session?: string }
  | { kind: 'key'; clue: string; client: string };
