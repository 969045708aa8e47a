// renderInvoicePdf imports svg-to-pdfkit, which ships no types: use the API's declaration of it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../apps/api/src/types/svg-to-pdfkit.d.ts" />
import type { TInvoiceDetail } from '@portal/contract';
import { Session } from 'node:inspector/promises';
import PDFDocument from 'pdfkit';
import { openPostgres } from '../apps/api/src/db/database.ts';
import { loadTenantId, type LoadShape } from '../apps/api/src/db/seed/generate.ts';
import { seededRandom } from '../apps/api/src/db/seed/random.ts';
import { isoToApi, todayIso } from '../apps/api/src/lib/dates.ts';
import {
  renderInvoicePdf,
  type PdfCustomer,
  type PdfTenant,
} from '../apps/api/src/modules/invoices/pdf.ts';
import { createInvoiceService } from '../apps/api/src/modules/invoices/service.ts';
import { summariseProfile, type Profile, type ProfileSummary } from './lib/cpu-profile.ts';
import { median, percentile, round } from './lib/stats.ts';

type Sample = { invoice: TInvoiceDetail; tenant: PdfTenant; customer: PdfCustomer };

export type PdfVariant = { p50: number; p99: number; meanBytes: number };
export type PdfResults = {
  invoices: number;
  portal: PdfVariant;
  bare: PdfVariant;
  ratioP50: number;
  /** The same measurements with one ingredient changed, to see what the time goes to. */
  diagnosis: Record<string, PdfVariant>;
  /** A CPU profile of the portal's renders alone. */
  profile: ProfileSummary;
};

/** Every string the portal's invoice draws, for a bare document of the same size. */
function stringsOf({ invoice, tenant, customer }: Sample): string[] {
  return [
    tenant.legal_name,
    tenant.legal_nif,
    tenant.legal_address,
    tenant.contact_email,
    'FACTURA',
    `Número: ${invoice.invoice_id}`,
    `Fecha: ${invoice.invoice_date}`,
    'CLIENTE',
    customer.name,
    `NIF: ${customer.nif}`,
    customer.address,
    `${customer.postal_code} · ${customer.city} · ${customer.province}`,
    `${customer.country} · ${customer.email}`,
    'Concepto Cant. Precio IVA Importe',
    ...invoice.lines.flatMap((l) => [
      `${l.concept}\n${l.person} · ${l.quota}`,
      String(l.quantity),
      `${l.unit_price} €`,
      `${l.iva} %`,
      `${l.unit_price * l.quantity} €`,
    ]),
    `Base imponible ${invoice.base} €`,
    `IVA ${invoice.iva} €`,
    `Total ${invoice.total} €`,
    'Vencimientos',
    ...invoice.payments.flatMap((p) => [p.duedate, p.method, `${p.import} €`, p.state]),
    `${tenant.legal_name} · Contacto: ${tenant.contact_email} · Página 1/1`,
  ];
}

function collect(doc: PDFKit.PDFDocument): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    doc.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    doc.on('end', () => resolve(bytes));
    doc.on('error', reject);
  });
}

/** A plain pdfkit document: A4, default font, the same strings one after the other. */
function bareDocument(sample: Sample, options: { compress?: boolean } = {}) {
  const doc = new PDFDocument({ size: 'A4', margin: 48, compress: options.compress ?? true });
  doc.fontSize(9);
  for (const text of stringsOf(sample)) doc.text(text);
  doc.end();
  return doc;
}

const today = isoToApi(todayIso());
const portalDocument = (sample: Sample, tenant: PdfTenant = sample.tenant) =>
  renderInvoicePdf({ ...sample, tenant, language: 'es', todayApi: today });

async function loadSamples(databaseUrl: string, shape: LoadShape, count: number) {
  const db = openPostgres({ connectionString: databaseUrl, max: 2 });
  const service = createInvoiceService(db);
  const random = seededRandom(9);
  const samples: Sample[] = [];
  try {
    while (samples.length < count) {
      const tenantId = loadTenantId(Math.floor(random() * shape.tenants));
      const offset = Math.floor(random() * shape.customersPerTenant * shape.invoicesPerCustomer);
      const found = await db.withTenant(tenantId, (sql) =>
        sql.query<{ id: string; customer_id: string }>(
          `SELECT id, customer_id FROM invoices WHERE tenant_id = current_setting('app.tenant_id')
            ORDER BY id OFFSET $1 LIMIT 1`,
          [offset],
        ),
      );
      const row = found[0];
      if (!row) continue;
      const actor = { tenantId, customerId: row.customer_id };
      const invoice = await service.detail(actor, row.id);
      const parties = await service.pdfParties(actor);
      samples.push({ invoice, tenant: parties.tenant, customer: parties.customer });
    }
  } finally {
    await db.close();
  }
  return samples;
}

/** Where renderInvoicePdf spends its time: V8's profiler over one pass of the portal's renders. */
async function profileRenders(samples: Sample[]): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    for (const s of samples) await collect(portalDocument(s));
    const { profile } = await session.post('Profiler.stop');
    // `dispatch` is the inspector's own call that stops the profiler and builds the profile.
    return summariseProfile(profile as Profile, 0, 12, ['dispatch']);
  } finally {
    session.disconnect();
  }
}

/**
 * Invoice PDFs: the portal's renderInvoicePdf, from the call to the last byte, over `count`
 * invoices of the data set, against a bare pdfkit document with the same text in the same run.
 * Variants are interleaved invoice by invoice, so that machine noise hits them alike.
 */
export async function benchPdf(options: {
  databaseUrl: string;
  shape: LoadShape;
  count: number;
  log: (line: string) => void;
}): Promise<PdfResults> {
  const samples = await loadSamples(options.databaseUrl, options.shape, options.count);
  const variants: Record<string, (s: Sample) => PDFKit.PDFDocument> = {
    portal: (s) => portalDocument(s),
    bare: (s) => bareDocument(s),
    'portal without the logo': (s) => portalDocument(s, { ...s.tenant, logo_data: null }),
    'bare, uncompressed': (s) => bareDocument(s, { compress: false }),
  };
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const sizes: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  // Warm-up: font metrics, code paths, the JIT.
  for (const s of samples.slice(0, 20)) {
    for (const make of Object.values(variants)) await collect(make(s));
  }
  for (const [i, s] of samples.entries()) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as string;
      const make = variants[name] as (s: Sample) => PDFKit.PDFDocument;
      const started = performance.now();
      const bytes = await collect(make(s));
      times[name]?.push(performance.now() - started);
      sizes[name]?.push(bytes);
    }
  }
  const summary = (name: string): PdfVariant => ({
    p50: round(median(times[name] ?? []), 2),
    p99: round(percentile(times[name] ?? [], 99), 2),
    meanBytes: round((sizes[name] ?? []).reduce((a, b) => a + b, 0) / samples.length, 0),
  });
  const profile = await profileRenders(samples);
  const portal = summary('portal');
  const bare = summary('bare');
  const diagnosis = Object.fromEntries(
    names.filter((n) => n !== 'portal' && n !== 'bare').map((n) => [n, summary(n)]),
  );
  for (const name of names) {
    const v = summary(name);
    options.log(
      `  ${name.padEnd(26)} p50 ${v.p50.toFixed(2)} ms  p99 ${v.p99.toFixed(2)} ms  ${v.meanBytes} bytes`,
    );
  }
  return {
    invoices: samples.length,
    portal,
    bare,
    ratioP50: round(portal.p50 / bare.p50, 2),
    diagnosis,
    profile,
  };
}
