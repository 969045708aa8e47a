import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * What was wrong (fixed in session 37, decision 047): every PDF of the portal (invoice, receipt, statement, SEPA mandate) is drawn with
 * pdfkit's standard Helvetica, which only has the WinAnsi (Windows-1252) characters. Any other
 * letter the provider ingests (a person's or a concept's name) is written as the bytes of its
 * UTF-16 code unit in that encoding: "Ștefan Țurcanu" (Romanian, the largest foreign community
 * in Spain), "Łukasz", "Nguyễn" come out as mojibake such as "V¶ 7¢ ƒÝà" in the invoice. No error,
 * no 4xx: the invoice simply names someone else.
 *
 * Why it matters: an invoice is a legal document (RD 1619/2012 asks for the recipient's name);
 * the PDF the customer downloads shows a garbled name and concept, where the invoice detail page
 * (and the API) show the right one. The provider sent valid UTF-8 that the API accepted.
 *
 * Right behaviour: the PDF shows the text as ingested (embed a Unicode TrueType font such as
 * DejaVu Sans / Noto Sans with a ToUnicode map for the portal's PDFs — apps/api/src/modules/
 * invoices/pdf.ts `newPdfDocument` and the `doc.font('Helvetica...')` calls), or at the very least
 * refuses at ingestion what it cannot print, rather than printing something else.
 */
describe.each(engines())('non-Latin-1 letters in an invoice PDF on $name', (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ app, me } = fixture);
  });
  afterAll(async () => fixture.close());

  it('prints the person and concept the provider sent, not mojibake', async () => {
    const id = 'REV-PDF-RO-1';
    const person = 'Ștefan Țurcanu';
    const concept = 'Clases de natación con Łukasz';
    const put = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload: {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            invoice_date: '2026-03-01',
            base_cents: 3000,
            vat_cents: 0,
            total_cents: 3000,
            lines: [
              {
                line_no: 1,
                person,
                concept,
                quantity: 1,
                unit_price_cents: 3000,
                vat_rate: 0,
              },
            ],
            instalments: [
              {
                seq: 1,
                due_date: '2026-03-05',
                amount_cents: 3000,
                method: 'Tarjeta',
                status: 'pending',
              },
            ],
          },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);

    // The detail the page shows has the names right.
    const detail = await me.post('/invoice', { invoice_id: id });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.body).toContain(person);
    expect(detail.body).toContain(concept);

    const link = await me.post('/invoice/pdf', { invoice_id: id });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).normalize('NFC');
    expect(text).toContain(person);
    expect(text).toContain(concept);
  }, 120_000);
});
