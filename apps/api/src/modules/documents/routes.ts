import { createHash } from 'node:crypto';
import { apiPrefix, ErrorCode, routes } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoToApi, todayIso } from '../../lib/dates.ts';
import { route } from '../../lib/route.ts';
import { deriveKey } from '../../lib/secrets.ts';
import { createSignedTokens } from '../../lib/signed-token.ts';
import { isPdfLanguage } from '../invoices/pdf-messages.ts';
import { createInvoiceService } from '../invoices/service.ts';
import type { Language } from '../mail/messages.ts';
import { documentMessages } from './messages.ts';
import { createDocumentService } from './service.ts';
import { statementCsv } from './statement.ts';
import { streamZip, zipEntryNames } from './zip.ts';

/** A document link works for five minutes, like the invoice PDF's. */
const linkSeconds = 300;

/** Which document a link is for: a link of one kind opened as another is refused (it was a 500). */
type DocumentKind = 'receipt' | 'statement' | 'zip';
type Claims = { t: string; c: string; d: DocumentKind; l?: Language };
type ReceiptClaims = Claims & { p: string };
type StatementClaims = Claims & { f: string; u: string; k: 'pdf' | 'csv' };
/** A period (`f`, `u`) or a selection, whose ids ride in the query and whose digest (`h`) is signed. */
type ZipClaims = Claims & { f?: string; u?: string; h?: string };

/** The digest of a selection: the link's query must name exactly the ids signed. */
const selectionDigest = (ids: string[]): string =>
  createHash('sha256').update(JSON.stringify(ids)).digest('base64url');

const expired = () => new AppError(404, ErrorCode.notFound, 'Link expired or invalid');

/**
 * Receipts, statements and invoice archives (issue 23, item 3): a bearer call answers a signed
 * five-minute link (the invoice PDF's pattern: a new tab or an `<a download>` opens it without the
 * bearer header); the link makes the document. PDFs are drawn on the heavy-work pool.
 */
export default async function documentRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createDocumentService(ctx.db);
  const invoices = createInvoiceService(ctx.db, ctx.now);
  const signed = createSignedTokens(deriveKey(ctx.rootSecret, 'documents'));
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });
  const base = (request: FastifyRequest) => apiPrefix(request.tenant.id);
  const claimsOf = <T extends Claims>(request: FastifyRequest, kind: DocumentKind): T => {
    const { token } = request.params as { token: string };
    const claims = signed.verify<T>(token);
    if (!claims || claims.t !== request.tenant.id || claims.d !== kind) throw expired();
    return claims;
  };
  const languageOf = async (claims: Claims) => {
    const actor = { tenantId: claims.t, customerId: claims.c };
    const parties = await invoices.pdfParties(actor);
    const language: Language = isPdfLanguage(claims.l)
      ? claims.l
      : isPdfLanguage(parties.customer.language)
        ? parties.customer.language
        : 'es';
    return { actor, parties, language };
  };
  const common = (
    request: FastifyRequest & { customerId: string },
    d: DocumentKind,
    language?: Language,
  ) => ({
    t: request.tenant.id,
    c: request.customerId,
    d,
    ...(language ? { l: language } : {}),
  });

  route(app, routes.receipts, ({ request }) => service.receipts(actorOf(request)), auth);

  route(
    app,
    routes.receiptLink,
    async ({ request, body }) => {
      await service.receipt(actorOf(request), body.payment_id);
      const token = signed.sign(
        { ...common(request, 'receipt', body.language), p: body.payment_id },
        linkSeconds,
      );
      return { url: `${base(request)}/documents/receipt/${token}` };
    },
    auth,
  );

  route(
    app,
    routes.statementLink,
    async ({ request, body }) => {
      const token = signed.sign(
        {
          ...common(request, 'statement', body.language),
          f: body.datefrom,
          u: body.dateto,
          k: body.format,
        },
        linkSeconds,
      );
      return { url: `${base(request)}/documents/statement/${token}` };
    },
    auth,
  );

  route(
    app,
    routes.invoicesZipLink,
    async ({ request, body }) => {
      const actor = actorOf(request);
      if (body.invoice_ids) {
        const ids = await service.zipInvoiceIds(actor, { ids: body.invoice_ids });
        const token = signed.sign(
          { ...common(request, 'zip', body.language), h: selectionDigest(ids) },
          linkSeconds,
        );
        const query = new URLSearchParams(ids.map((id): [string, string] => ['id', id])).toString();
        return {
          url: `${base(request)}/documents/invoices-zip/${token}?${query}`,
          count: ids.length,
        };
      }
      const from = body.datefrom ?? '';
      const to = body.dateto ?? '';
      const ids = await service.zipInvoiceIds(actor, { from, to });
      const token = signed.sign(
        { ...common(request, 'zip', body.language), f: from, u: to },
        linkSeconds,
      );
      return { url: `${base(request)}/documents/invoices-zip/${token}`, count: ids.length };
    },
    auth,
  );

  // The links themselves: GETs a new tab can open without the bearer header (outside the table).
  app.get('/documents/receipt/:token', { schema: { hide: true } }, async (request, reply) => {
    const claims = claimsOf<ReceiptClaims>(request, 'receipt');
    const { actor, parties, language } = await languageOf(claims);
    const receipt = await service.receipt(actor, claims.p);
    const pdf = await ctx.heavyWork.renderReceiptPdf(request.tenant.id, {
      receipt,
      tenant: parties.tenant,
      customer: parties.customer,
      language,
    });
    const name = `${documentMessages[language].receiptFile}-${receipt.order_id}.pdf`;
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${name}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  app.get('/documents/statement/:token', { schema: { hide: true } }, async (request, reply) => {
    const claims = claimsOf<StatementClaims>(request, 'statement');
    const { actor, parties, language } = await languageOf(claims);
    const statement = await service.statement(actor, claims.f, claims.u);
    const m = documentMessages[language];
    const name = `${m.statementFile}-${claims.f}-${claims.u}`;
    reply.header('cache-control', 'private, no-store');
    if (claims.k === 'csv') {
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .send(statementCsv(statement, m));
    }
    const pdf = await ctx.heavyWork.renderStatementPdf(request.tenant.id, {
      statement,
      tenant: parties.tenant,
      customer: parties.customer,
      language,
      todayApi: isoToApi(todayIso(ctx.now())),
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${name}.pdf"`)
      .send(pdf);
  });

  app.get('/documents/invoices-zip/:token', { schema: { hide: true } }, async (request, reply) => {
    const claims = claimsOf<ZipClaims>(request, 'zip');
    const { actor, parties, language } = await languageOf(claims);
    let ids: string[];
    if (claims.h) {
      const raw = (request.query as { id?: unknown }).id;
      const given = (Array.isArray(raw) ? raw : [raw]).filter(
        (v): v is string => typeof v === 'string',
      );
      if (selectionDigest(given) !== claims.h) throw expired();
      ids = await service.zipInvoiceIds(actor, { ids: given });
    } else if (claims.f && claims.u) {
      ids = await service.zipInvoiceIds(actor, { from: claims.f, to: claims.u });
    } else {
      throw expired();
    }
    const todayApi = isoToApi(todayIso(ctx.now()));
    const body = streamZip(zipEntryNames(ids), async (id) =>
      ctx.heavyWork.renderInvoicePdf(request.tenant.id, {
        invoice: await invoices.detail(actor, id),
        tenant: parties.tenant,
        customer: parties.customer,
        language,
        todayApi,
      }),
    );
    request.raw.on('close', () => {
      if (!reply.raw.writableFinished) body.destroy();
    });
    return reply
      .header('content-type', 'application/zip')
      .header(
        'content-disposition',
        `attachment; filename="${documentMessages[language].invoicesFile}.zip"`,
      )
      .header('cache-control', 'private, no-store')
      .send(body);
  });
}
