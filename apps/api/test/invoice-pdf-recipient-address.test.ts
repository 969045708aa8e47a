import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { pdfText } from './pdf-text.ts';
import { openSignedInApp, type signedIn } from './session.ts';

/*
 * Review of the recipient printed on the invoice PDF (invoices/repository.ts findPdfParties):
 * the street and the city fall back from the shipping address to the main one field by field,
 * while the postcode and province are always the shipping ones and the country always the main
 * one. A customer whose postal address is abroad gets "España" under it; one with a shipping
 * postcode but no shipping street gets a postcode of one address with the street and city of
 * the other. The recipient's address is a mandatory item of the invoice (RD 1619/2012 art. 6.1 e).
 */
describe.each(engines())('the recipient address on the invoice PDF, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, app, me, close } = await openSignedInApp(engine));
  });
  afterAll(async () => close());

  async function customerBlock(): Promise<string> {
    const list = await me.post('/invoices', { datefrom: '20000101', dateto: '20991231', page: 1 });
    expect(list.statusCode, list.body).toBe(200);
    const [first] = list.json<{ invoices: { invoice_id: string }[] }>().invoices;
    const link = await me.post('/invoice/pdf', { invoice_id: first?.invoice_id, language: 'es' });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(new Uint8Array(pdf.rawPayload));
    return text.slice(text.indexOf('CLIENTE'), text.indexOf('Concepto'));
  }

  const setAddress = (fields: Record<string, string>) =>
    db.withOwner((sql) =>
      sql.query(
        `UPDATE customers SET address = $2, city = $3, country = $4, shipping_address = $5,
                shipping_cp = $6, shipping_city = $7, shipping_province = $8, shipping_country = $9
          WHERE tenant_id = 'demo' AND id = $1`,
        [
          me.user.id,
          fields.address,
          fields.city,
          fields.country,
          fields.shipping_address,
          fields.shipping_cp,
          fields.shipping_city,
          fields.shipping_province,
          fields.shipping_country,
        ],
      ),
    );

  it('prints the country of the address it prints', async () => {
    await setAddress({
      address: 'Calle Mayor 12, 3º B',
      city: 'Madrid',
      country: 'España',
      shipping_address: '10 Rue de Rivoli',
      shipping_cp: '75001',
      shipping_city: 'Paris',
      shipping_province: 'Île-de-France',
      shipping_country: 'Francia',
    });
    const block = await customerBlock();
    expect(block).toContain('10 Rue de Rivoli');
    expect(block).toContain('Francia');
    expect(block).not.toContain('España');
  }, 120_000);

  it('does not print one address with the postcode and province of another', async () => {
    await setAddress({
      address: 'Calle Mayor 12, 3º B',
      city: 'Madrid',
      country: 'España',
      shipping_address: '',
      shipping_cp: '08008',
      shipping_city: '',
      shipping_province: 'Barcelona',
      shipping_country: '',
    });
    const block = await customerBlock();
    expect(block).toContain('Calle Mayor 12, 3º B');
    expect(block).not.toContain('08008 · Madrid');
  }, 120_000);
});
