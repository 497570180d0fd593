// Quotes: shrink requests priced as quotes, their status, and the client's billing.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { formatDollars, MESSAGES, QUOTE_UNPAID, shrinkPrice } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { requireProject, requireClient, requirePile, requireQuote } from '../access';
import { projectOut } from './projects';
import { clientView, quoteView } from '../views';
import { uploadRefs } from '../refs';
import { newId, now } from '../ids';
import { badRequest, notFound } from '../errors';
import { invoiceNumber, millions, spendCredit } from '../billing/credit';
import { payQuote, quoteIsLive } from '../billing/shrink';
import { actorOf, audit } from '../audit';
import { newQuoteRow } from '../db/rows';
import type { Services } from '../services';
import { runsOut, usableUpload } from './requests';

/** What the group uses: a call's own services and jobs, payments. */
export type QuoteServices = CallServices & Pick<Services, 'jobs' | 'payments'>;

export const quoteRoutes: FastifyPluginAsyncZod<QuoteServices> = async (app, s) => {
  defineCall(app, s, 'shrinkCreate', { keys: true }, async ({ caller, body, req }) => {
    const { project, client } = await requireProject(s.db, caller, body.bucket);
    const { pile } = await requirePile(s.db, caller, body.pile);
    if (pile.bucket !== project.stamp || pile.variety !== 'ShrinkService') throw notFound('Parameters');
    const { upload, item, items } = await usableUpload(s, project.stamp, body.rend, '.py', MESSAGES.shrinkSingleFile);
    // One .py model and nothing else, so the price every client shows (summed over the upload's files) is the price billed.
    if (items.length !== 1) throw badRequest(MESSAGES.shrinkSingleFile);
    const inputs = Number(item.inputs);
    // A model counted at 0 (or not counted) would be free and start at once: only a real count is priced.
    if (!Number.isSafeInteger(inputs) || inputs < 1) throw badRequest(MESSAGES.shrinkNoParameters);
    const stamp = newId('q_');
    await s.db.transaction().execute(async (trx) => {
      const { free } = await spendCredit(trx, client.stamp, inputs);
      const cent = shrinkPrice(inputs, free).amountDueCents;
      await trx
        .insertInto('quotes')
        .values(
          newQuoteRow({
            stamp,
            bucket: project.stamp,
            rend: upload.stamp,
            pile: pile.stamp,
            name: body.name,
            desc: body.desc,
            cent,
            invoice_num: invoiceNumber(),
            inputs,
            created_at: now(),
          }),
        )
        .execute();
      await audit(trx, {
        client: client.stamp,
        actor: actorOf(caller),
        action: 'quote.create',
        target: stamp,
        detail: `${body.name} (${formatDollars(cent)})`,
      });
      // Covered entirely by free credit (the server's own count and credit, nothing the client sent): it starts at once.
      if (cent === 0) await payQuote(trx, s.jobs, stamp, req.id);
    });
    s.jobs.wake();
    const quote = await s.db.selectFrom('quotes').selectAll().where('stamp', '=', stamp).executeTakeFirstOrThrow();
    return { quote: quoteView(quote, { stamp: upload.stamp, name: upload.name }) };
  });

  defineCall(app, s, 'quoteStatus', { keys: true }, async ({ caller, query }) => {
    const { quote, project, client } = await requireQuote(s.db, caller, query.quote);
    const run = quote.run
      ? await s.db.selectFrom('runs').selectAll().where('stamp', '=', quote.run).where('active', '=', 1).executeTakeFirst()
      : undefined;
    const ref = await uploadRefs(s.db, [quote.rend]);
    return {
      client: clientView(client),
      bucket: projectOut(project),
      quote: { record: quoteView(quote, ref(quote.rend)), run: run ? (await runsOut(s.db, [run]))[0] : null },
    };
  });

  defineCall(app, s, 'billingStatus', {}, async ({ caller, query, base }) => {
    const client = await requireClient(s.db, caller, query.client);
    const due = await s.db
      .selectFrom('quotes')
      .innerJoin('buckets', 'buckets.stamp', 'quotes.bucket')
      .select(sql<number>`coalesce(sum(quotes.cent), 0)::bigint`.as('cents'))
      .where('buckets.client', '=', client.stamp)
      .where('quotes.state', '=', QUOTE_UNPAID)
      // Quotes of a removed project or upload are not owed: they can no longer be paid.
      .where(quoteIsLive)
      .executeTakeFirstOrThrow();
    return {
      billing: {
        creditBalance: millions(Math.max(0, client.credit_total - client.credit_used)),
        creditConsumed: millions(client.credit_used),
        accountCentBalance: Number(due.cents),
        portalUrl: s.payments.portalUrl(client.stamp, base),
      },
    };
  });
};
