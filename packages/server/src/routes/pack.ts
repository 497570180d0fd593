// The installer download: `pip install <base>/api/pack/<clue>/<secret>/<wheel>` serves the Python client and counts an
// install of that key. Only a download carrying the key's install secret (members see it) is served and counted.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, PACK_PATH_PREFIX } from '@portal/core';
import { buildClientWheel } from '../processing/index';
import { HttpError, notFound } from '../errors';
import { now } from '../ids';
import { PACK_WHEEL } from '../views';
import type { Services } from '../services';

/** What the group uses: the database (the key a download counts for). */
export type PackServices = Pick<Services, 'db'>;

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const outOfDate = () =>
  new HttpError(404, ERROR_CODES.notFound, "This installer link is out of date: copy the pip command from the key's page again.");

export const packRoutes: FastifyPluginAsyncZod<PackServices> = async (app, s) => {
  let wheel: Promise<{ fileName: string; bytes: Buffer }> | null = null;
  const getWheel = () => {
    wheel ??= buildClientWheel().catch((err) => {
      wheel = null;
      throw err;
    });
    return wheel;
  };

  // The form of earlier versions (`<wheel>?key=<clue>`) carried no secret: anyone who saw a key's id could count installs.
  app.get(`${PACK_PATH_PREFIX}:file`, async () => {
    throw outOfDate();
  });

  app.get<{ Params: { clue: string; secret: string; file: string } }>(`${PACK_PATH_PREFIX}:clue/:secret/:file`, async (req, reply) => {
    if (req.params.file !== PACK_WHEEL) {
      // A pip command copied before the client's version changed names an older wheel: say how to get the current one.
      if (/^portal_client-[\w.]+-py3-none-any\.whl$/.test(req.params.file)) throw outOfDate();
      throw notFound('Package');
    }
    const key = await s.db
      .selectFrom('apikeys')
      .select(['clue', 'install_secret'])
      .where('clue', '=', req.params.clue)
      .where('active', '=', 1)
      .executeTakeFirst();
    // A wrong secret answers like an unknown key: the answer tells nothing about which ids exist.
    if (!key || !sameText(key.install_secret, req.params.secret)) throw notFound('API key');
    const { bytes } = await getWheel();
    // pip may ask with HEAD first: only a download counts. no-store keeps pip's cache from hiding installs.
    if (req.method === 'GET') {
      await s.db
        .updateTable('apikeys')
        .set((eb) => ({ installs: eb('installs', '+', 1), installed_at: now() }))
        .where('clue', '=', key.clue)
        .execute();
    }
    reply.header('cache-control', 'no-store');
    reply.header('content-disposition', `attachment; filename="${PACK_WHEEL}"`);
    return reply.type('application/zip').send(bytes);
  });
};
