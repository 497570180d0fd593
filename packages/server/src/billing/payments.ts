// The payment portal behind `billing.portalUrl`: an interface, and the embedded default, a page this server renders.
import type { FastifyInstance } from 'fastify';
import { formatDollars, formatTime, PALETTE as C } from '@portal/core';
import type { PaymentProvider, Services } from '../services';
import { now } from '../ids';
import { QUOTE_GONE_MESSAGE, payQuote, quoteIsLive } from './shrink';

const PORTAL_TTL_S = 24 * 60 * 60;

const escape = (v: unknown) =>
  String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The embedded payment page: `/pay/<client>?exp=..&sig=..` lists the client's invoices and marks one paid.
 * The link is signed and expires after a day, like a hosted billing portal's session link.
 */
export class EmbeddedPayments implements PaymentProvider {
  constructor(
    private readonly sign: (...parts: Array<string | number>) => string,
    private readonly verify: (sig: string, ...parts: Array<string | number>) => boolean,
  ) {}

  portalUrl(client: string, base: string): string {
    const exp = now() + PORTAL_TTL_S;
    return `${base}/pay/${encodeURIComponent(client)}?exp=${exp}&sig=${this.sign('pay', client, exp)}`;
  }

  register(app: FastifyInstance, s: Pick<Services, 'db' | 'jobs'>): void {
    const check = (client: string, exp: unknown, sig: unknown) => {
      const e = Number(exp);
      return Number.isInteger(e) && e >= now() && typeof sig === 'string' && this.verify(sig, 'pay', client, e);
    };
    const page = (title: string, body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>` +
      // The portal's theme: light grey page, dark paper, teal accent.
      `<link rel="icon" href="/favicon.ico"><style>body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:${C.page};color:${C.pageText};margin:0;padding:2rem 1rem}` +
      `main{max-width:760px;margin:auto;background:${C.paper};color:${C.text};border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 3px #0003}` +
      `h1{color:${C.accent};font-size:1.4rem;margin-top:0}table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.5rem;border-bottom:1px solid ${C.divider}}` +
      `button{background:${C.accent};color:${C.onAccent};border:0;border-radius:8px;padding:.4rem .9rem;cursor:pointer;font:inherit;font-weight:600}` +
      `button:focus-visible{outline:2px solid ${C.text};outline-offset:2px}.paid{color:${C.success}}.note{color:${C.textSecondary}}</style></head>` +
      `<body><main>${body}</main></body></html>`;

    app.get<{ Params: { client: string }; Querystring: { exp?: string; sig?: string } }>('/pay/:client', async (req, reply) => {
      const { client } = req.params;
      reply.type('text/html; charset=utf-8');
      if (!check(client, req.query.exp, req.query.sig)) {
        return reply
          .code(403)
          .send(
            page(
              'Payment link expired',
              '<h1>This payment link is not valid</h1><p class="note">Open billing again from the quote page to get a fresh link.</p>',
            ),
          );
      }
      const c = await s.db.selectFrom('clients').select(['name']).where('stamp', '=', client).executeTakeFirst();
      const quotes = await s.db
        .selectFrom('quotes')
        .innerJoin('buckets', 'buckets.stamp', 'quotes.bucket')
        .select(['quotes.stamp', 'quotes.name', 'quotes.invoice_num', 'quotes.cent', 'quotes.state', 'quotes.created_at'])
        .where('buckets.client', '=', client)
        .where(quoteIsLive)
        .orderBy('quotes.created_at', 'desc')
        .execute();
      const rows = quotes
        .map((q) => {
          const action =
            q.state === 'Unpaid'
              ? `<form method="post" action="/pay/${escape(encodeURIComponent(client))}/${escape(encodeURIComponent(q.stamp))}?exp=${escape(req.query.exp)}&amp;sig=${escape(req.query.sig)}"><button type="submit">Pay ${escape(formatDollars(q.cent))}</button></form>`
              : `<span class="paid">${escape(q.state)}</span>`;
          return `<tr><td>${escape(q.invoice_num)}</td><td>${escape(q.name)}</td><td>${escape(formatTime(q.created_at))}</td><td>${escape(formatDollars(q.cent))}</td><td>${action}</td></tr>`;
        })
        .join('');
      const body =
        `<h1>Invoices of ${escape(c?.name ?? 'this account')}</h1>` +
        (quotes.length
          ? `<table><thead><tr><th>Invoice</th><th>Request</th><th>Created</th><th>Amount</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
          : '<p class="note">No invoices yet.</p>') +
        '<p class="note">Paying an invoice starts its request. You can close this page and follow the request in the portal.</p>';
      return reply.send(page('Invoices', body));
    });

    app.post<{ Params: { client: string; quote: string }; Querystring: { exp?: string; sig?: string } }>(
      '/pay/:client/:quote',
      async (req, reply) => {
        const { client, quote } = req.params;
        reply.type('text/html; charset=utf-8');
        if (!check(client, req.query.exp, req.query.sig)) {
          return reply.code(403).send(page('Payment link expired', '<h1>This payment link is not valid</h1>'));
        }
        const owned = await s.db
          .selectFrom('quotes')
          .innerJoin('buckets', 'buckets.stamp', 'quotes.bucket')
          .select('quotes.stamp')
          .where('quotes.stamp', '=', quote)
          .where('buckets.client', '=', client)
          .where('quotes.active', '=', 1)
          .executeTakeFirst();
        if (!owned) return reply.code(404).send(page('Invoice not found', '<h1>Invoice not found</h1>'));
        const paid = await s.db.transaction().execute((trx) => payQuote(trx, s.jobs, quote, req.id));
        if (paid === 'removed') {
          return reply
            .code(409)
            .send(page('Invoice cannot be paid', `<h1>Invoice cannot be paid</h1><p>${escape(QUOTE_GONE_MESSAGE)}</p>`));
        }
        // Paying a Paid invoice again (a second click, a retried form) charges nothing and starts nothing.
        if (paid === 'started') {
          s.jobs.wake();
        }
        return reply.redirect(
          `/pay/${encodeURIComponent(client)}?exp=${encodeURIComponent(String(req.query.exp))}&sig=${encodeURIComponent(String(req.query.sig))}`,
          303,
        );
      },
    );
  }
}
