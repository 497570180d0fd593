// The installer download: `pip install <base>/api/pack/<wheel>?key=<clue>` serves the Python client and counts an install of that key.
import type { FastifyInstance } from 'fastify';
import { PACK_PATH_PREFIX } from '@portal/core';
import { buildClientWheel } from '../processing/index';
import { notFound } from '../errors';
import { now } from '../ids';
import { PACK_WHEEL } from '../views';
import type { Services } from '../services';

export function packRoutes(app: FastifyInstance, s: Services) {
  let wheel: Promise<{ fileName: string; bytes: Buffer }> | null = null;
  const getWheel = () => {
    wheel ??= buildClientWheel().catch((err) => {
      wheel = null;
      throw err;
    });
    return wheel;
  };

  app.get<{ Params: { file: string }; Querystring: { key?: string } }>(`${PACK_PATH_PREFIX}:file`, async (req, reply) => {
    if (req.params.file !== PACK_WHEEL) throw notFound('Package');
    const clue = typeof req.query.key === 'string' ? req.query.key : '';
    const key = clue ? await s.db.selectFrom('apikeys').select('clue').where('clue', '=', clue).where('active', '=', 1).executeTakeFirst() : undefined;
    if (!key) throw notFound('API key');
    const { bytes } = await getWheel();
    await s.db
      .updateTable('apikeys')
      .set((eb) => ({ installs: eb('installs', '+', 1), installed_at: now() }))
      .where('clue', '=', key.clue)
      .execute();
    reply.header('content-disposition', `attachment; filename="${PACK_WHEEL}"`);
    return reply.type('application/zip').send(bytes);
  });
}
