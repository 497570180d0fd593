// The database: opened from the config (or handed in, as the tests share one), the attempts the rate limit counts
// kept in it (so every API process counts the same), and tokens stored under an older key moved to the current one.
// Decorates the app with `database`; closes it with the app when it opened it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ERROR_CODES, MESSAGES } from '@portal/core';
import type { Config } from '../config';
import { openDatabase, type Database, type QueryObserver } from '../db/index';
import type { Secrets } from '../auth/secrets';
import { reencryptStored } from '../auth/keys';
import { databaseRateStore } from '../ratelimit';
import { HttpError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

export interface DatabaseOptions {
  config: Config;
  secrets: Secrets;
  /** An already opened database, which the app then leaves open when it closes. */
  database?: Database;
  /** Each query's time, for the metrics (set once they exist). */
  queries: { observe?: QueryObserver };
}

async function database(app: FastifyInstance, { config, secrets, database: given, queries }: DatabaseOptions) {
  const opened =
    given ??
    (await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      migrate: config.migrate ? 'apply' : 'check',
      // Named parameters, not (...q): a rest array and a spread call on every query otherwise.
      onQuery: (ms, sqlText, failed) => queries.observe?.(ms, sqlText, failed),
    }));
  if (!given) app.addHook('onClose', () => opened.close());
  app.decorate('database', opened);
  await app.register(rateLimit, {
    global: false,
    store: databaseRateStore(opened.db),
    errorResponseBuilder: () => new HttpError(429, ERROR_CODES.rateLimited, MESSAGES.rateLimited),
  });
  // Tokens written by earlier versions (a key derived from JWT_SECRET) or under an older ENCRYPTION_KEY move now.
  const stored = await reencryptStored(opened.db, secrets);
  if (stored.moved) app.log.info(`Re-encrypted ${stored.moved} stored token(s) with the current encryption key.`);
  if (stored.unreadable) {
    app.log.warn(
      `${stored.unreadable} stored token(s) cannot be read with ENCRYPTION_KEY (a key that was changed or lost): their lists say so; put the old key after the new one in ENCRYPTION_KEY to recover them.`,
    );
  }
}

export default fp(database, { name: 'portal-database', fastify: '5.x' });
