// Where files are kept: the local store in DATA_DIR or an S3-compatible bucket (STORAGE_URL), its failures counted.
// Decorates the app with `storage`.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Secrets } from '../auth/secrets';
import { browserOrigins, openStorage, storageSettings, type Storage } from '../storage/index';
import { countStorageErrors, type Metrics } from '../metrics';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export interface StorageOptions {
  config: Config;
  secrets: Secrets;
  metrics: Metrics;
  /** This process is the store's only user (the embedded database): half-written files of a crash are all cleared. */
  exclusive: boolean;
}

async function storage(app: FastifyInstance, { config, secrets, metrics, exclusive }: StorageOptions) {
  const store = countStorageErrors(
    await openStorage({ ...storageSettings(config), secrets, corsOrigins: browserOrigins(config), log: app.log }),
    metrics.storageErrors,
  );
  await store.init({ exclusive });
  app.decorate('storage', store);
}

export default fp(storage, { name: 'portal-storage', fastify: '5.x' });
