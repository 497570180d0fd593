// Operator commands over HTTP, for `portal-server admin` while this server holds the embedded database.
// Only a caller with the per-start token from DATA_DIR/admin.json (mode 0600) gets in.
import type { FastifyPluginAsync } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { AdminError, runAdmin } from '../admin';
import { badRequest, unauthorized } from '../errors';
import type { Services } from '../services';

export const ADMIN_PATH = '/api/admin/command';

/** What the operator's calls use, and the token that authorises them. */
export type AdminServices = Pick<Services, 'config' | 'db' | 'secrets' | 'snapshot'> & { token: string };

export const adminRoutes: FastifyPluginAsync<AdminServices> = async (app, s) => {
  const { token } = s;
  const expected = Buffer.from(token);
  app.post<{ Body: { command?: unknown; args?: unknown; json?: unknown } }>(ADMIN_PATH, async (req) => {
    const given = Buffer.from(String(req.headers['x-portal-admin'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized('Invalid admin token');
    const { command, args, json } = req.body ?? {};
    if (typeof command !== 'string' || !Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      throw badRequest('command must be a string and args a list of strings');
    }
    try {
      const output = await runAdmin(
        { db: s.db, config: s.config, secrets: s.secrets, snapshot: s.snapshot },
        command,
        args as string[],
        json === true,
      );
      return { output };
    } catch (err) {
      if (err instanceof AdminError) throw badRequest(err.message);
      throw err;
    }
  });
};
