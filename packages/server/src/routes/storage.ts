// The local store's endpoint: signed PUTs of upload bytes (verified length and SHA-256, then renamed into place, once per
// link) and signed downloads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { STORAGE_PATH_PREFIX } from '@portal/core';
import { LocalStorage } from '../storage/local';
import { badRequest, conflict, forbidden, notFound, storageFull } from '../errors';
import { now } from '../ids';
import { uploadKey } from '../uploads';
import { CHECKSUM_MISMATCH, LINK_EXPIRED, LINK_USED, sizeMismatch } from '../storage/messages';
import type { Services } from '../services';

/** What the group uses: the database (the signed uploads), the disk watch and the store. */
export type StorageServices = Pick<Services, 'db' | 'disk' | 'storage'>;

/** The call below that receives upload bytes: its body may take as long as the bytes keep moving (see lifecycle.ts). */
export const isUploadBytes = (method: string, route?: string) => method === 'PUT' && route === `${STORAGE_PATH_PREFIX}upload/:stamp`;

export const storageRoutes: FastifyPluginAsyncZod<StorageServices> = async (app, s) => {
  const store = s.storage;
  if (!(store instanceof LocalStorage)) return;

  app.register(async (scoped) => {
    // The body is the file itself, whatever its type: the handler streams it, nothing parses it.
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    scoped.put<{ Params: { stamp: string }; Querystring: { exp?: string; sig?: string } }>(
      `${STORAGE_PATH_PREFIX}upload/:stamp`,
      async (req, reply) => {
        const item = await s.db.selectFrom('uploads').selectAll().where('stamp', '=', req.params.stamp).executeTakeFirst();
        const exp = Number(req.query.exp);
        if (
          !item ||
          !Number.isInteger(exp) ||
          !store.verifyUpload({ stamp: item.stamp, size: item.size, checksum: item.checksum }, exp, String(req.query.sig ?? ''))
        ) {
          throw forbidden('This upload link is not valid.');
        }
        if (exp < now()) throw forbidden(LINK_EXPIRED);
        if (item.state === 'Failed')
          throw conflict('This file has failed, so its upload link takes no more bytes: register the file again.');
        if (item.state !== 'Pending' || item.stored) throw conflict(LINK_USED);
        const upload = await s.db.selectFrom('rends').select('active').where('stamp', '=', item.rend).executeTakeFirst();
        if (!upload?.active) throw notFound('Upload');

        const fail = async (error: string) => {
          await s.db
            .updateTable('uploads')
            .set({ state: 'Failed', error })
            .where('stamp', '=', item.stamp)
            .where('state', '=', 'Pending')
            .execute();
          return badRequest(error);
        };
        const declared = req.headers['content-length'];
        if (declared !== undefined && Number(declared) !== item.size) {
          req.raw.resume();
          throw await fail(sizeMismatch(Number(declared), item.size));
        }

        const tmp = store.tempPath();
        const hash = createHash('sha256');
        let received = 0;
        // A file that cannot be written (a full disk) is noted and the rest of the body read and dropped, so the
        // sender gets the answer rather than a connection cut mid-file.
        let unwritten: unknown = null;
        let out: FileHandle | null = null;
        try {
          out = await open(tmp, 'wx');
        } catch (err) {
          unwritten = err;
        }
        try {
          for await (const chunk of req.raw as AsyncIterable<Buffer>) {
            received += chunk.length;
            // Stop reading as soon as the body is longer than registered: no need to store the rest.
            if (received > item.size) break;
            hash.update(chunk);
            if (out && !unwritten) await out.write(chunk).catch((err: unknown) => (unwritten = err));
          }
        } catch {
          await out?.close().catch(() => {});
          await rm(tmp, { force: true });
          // The sender went away mid-file: the item stays Pending and the same link can be used again.
          throw badRequest('The upload was interrupted: send the file again.');
        }
        await out?.close().catch((err: unknown) => (unwritten ??= err));
        if (received > item.size) {
          await rm(tmp, { force: true });
          throw await fail(`The file sent is longer than the ${item.size} bytes registered.`);
        }
        if (unwritten) {
          await rm(tmp, { force: true });
          // The item stays Pending: the same link takes the file again once there is room.
          if (s.disk.noteIfFull(unwritten, 'storage')) throw storageFull();
          throw unwritten;
        }
        if (received !== item.size) {
          await rm(tmp, { force: true });
          throw await fail(sizeMismatch(received, item.size));
        }
        if (hash.digest('hex') !== item.checksum) {
          await rm(tmp, { force: true });
          throw await fail(CHECKSUM_MISMATCH);
        }
        // One upload per link: of two bodies sent at once, only the first to be verified is taken.
        const taken = await s.db
          .updateTable('uploads')
          .set({ stored: 1 })
          .where('stamp', '=', item.stamp)
          .where('state', '=', 'Pending')
          .where('stored', '=', 0)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) {
          await rm(tmp, { force: true });
          throw conflict(LINK_USED);
        }
        try {
          await store.putFile(uploadKey(item.stamp), tmp);
        } catch (err) {
          await rm(tmp, { force: true });
          await s.db.updateTable('uploads').set({ stored: 0 }).where('stamp', '=', item.stamp).where('state', '=', 'Pending').execute();
          if (s.disk.noteIfFull(err, 'storage')) throw storageFull();
          throw err;
        }
        return reply.code(200).send({ ok: true });
      },
    );
  });

  app.get<{ Params: { '*': string }; Querystring: { name?: string; exp?: string; sig?: string } }>(
    `${STORAGE_PATH_PREFIX}file/*`,
    async (req, reply) => {
      const key = req.params['*'];
      const name = String(req.query.name ?? '');
      const exp = Number(req.query.exp);
      if (!Number.isInteger(exp) || !store.verifyDownload(key, name, exp, String(req.query.sig ?? '')))
        throw forbidden('This download link is not valid.');
      if (exp < now()) throw forbidden('This download link has expired: open the request again for a fresh one.');
      if (!(await store.stat(key))) throw notFound('File');
      reply.header('content-disposition', `attachment; filename="${name.replace(/["\\\r\n]/g, '')}"`);
      reply.type(name.endsWith('.json') ? 'application/json' : 'application/octet-stream');
      return reply.send(store.openRead(key));
    },
  );
};
