import { readFileSync } from 'node:fs';
import type { TInvoiceDetail } from '@portal/contract';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it, vi } from 'vitest';
import { renderInvoicePdfBytes, type PdfInput } from './pdf.ts';
import { isPdfLanguage, pdfMessages } from './pdf-messages.ts';

const languages = ['es', 'ca', 'en', 'eu'] as const;

/** Words the same in Spanish and in that language, so not a Spanish leftover. */
const sameWord: Record<(typeof languages)[number], string[]> = {
  es: [],
  ca: ['FACTURA', 'FACTURA RECTIFICATIVA', 'Número', 'NIF', 'IVA', 'Total'],
  en: ['Total'],
  eu: [],
};

const flat = (messages: object): [string, string][] =>
  Object.entries(messages).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string'
      ? [[key, value]]
      : Object.entries(value as Record<string, string>).map(([k, v]) => [`${key}.${k}`, v]),
  );

function input(language: PdfInput['language']): PdfInput {
  const invoice: TInvoiceDetail = {
    invoice_id: 'F2026-00083',
    invoice_date: '20260301',
    base: 10,
    iva: 2.1,
    total: 12.1,
    import: 12.1,
    pending: 6.05,
    to_pay: 6.05,
    customer_name: 'Laura García',
    status: 0,
    state: 'partially_paid',
    lines: [
      {
        person: 'Pau',
        concept: 'Cuota',
        quota: 'Marzo',
        quantity: 1,
        unit_price: 10,
        iva: 21,
        amount: 10,
      },
    ],
    payments: [
      {
        payment_id: 'p1',
        duedate: '20260305',
        method: 'Domiciliación bancaria',
        method_kind: 'direct_debit',
        import: 6.05,
        paiddate: '20260305',
        state: 'paid',
        status: 'paid',
      },
      {
        payment_id: 'p2',
        duedate: '20990305',
        method: 'Tarjeta',
        method_kind: 'card',
        import: 6.05,
        paiddate: null,
        state: 'pending',
        status: 'pending',
      },
    ],
  };
  return {
    invoice,
    tenant: {
      company_name: 'Demo Fitness',
      legal_name: 'Demo Fitness S.L.',
      legal_nif: 'B12345678',
      legal_address: 'Carrer Major 1, Girona',
      contact_email: 'secretaria@demo.test',
      primary_color: '0a7a55',
      logo_mime: null,
      logo_data: null,
    },
    customer: {
      name: 'Laura García',
      nif: '12345678Z',
      address: 'Carrer Nou 2',
      postal_code: '17001',
      city: 'Girona',
      province: 'Girona',
      country: 'España',
      email: 'cliente@demo.test',
    },
    language,
    todayApi: '20260310',
    createdAt: new Date('2026-03-10T10:00:00Z'),
  };
}

async function pdfText(language: PdfInput['language']): Promise<string> {
  const parser = new PDFParse({ data: await renderInvoicePdfBytes(input(language)) });
  const { text } = await parser.getText();
  await parser.destroy();
  return text;
}

describe('the invoice PDF in the customer language', () => {
  it.each(languages)('has every label in %s, none of them left in Spanish', (language) => {
    const spanish = new Map(flat(pdfMessages.es));
    const labels = flat(pdfMessages[language]);
    expect(labels.map(([key]) => key).sort()).toEqual([...spanish.keys()].sort());
    if (language === 'es') return;
    const leftovers = labels.filter(
      ([key, text]) => spanish.get(key) === text && !sameWord[language].includes(text),
    );
    expect(leftovers).toEqual([]);
  });

  it.each(languages)('names the payment methods in %s as the web app does', (language) => {
    const web = JSON.parse(
      readFileSync(
        new URL(`../../../../web/src/locales/${language}/invoices.json`, import.meta.url),
        'utf8',
      ),
    ) as { paymentMethodKinds: Record<string, string> };
    expect(pdfMessages[language].methods).toEqual(web.paymentMethodKinds);
  });

  it('writes the Basque PDF in Basque: labels, states and method names', async () => {
    const text = await pdfText('eu');
    for (const word of ['FAKTURA', 'Epemugak', 'Helbideratze bankarioa', 'Txartela', 'Guztira'])
      expect(text).toContain(word);
    for (const word of ['Domiciliación', 'Tarjeta', 'Vencimientos', 'Pendiente', 'Importe'])
      expect(text).not.toContain(word);
  });

  it('writes the English PDF in English', async () => {
    const text = await pdfText('en');
    expect(text).toContain('Direct debit');
    expect(text).not.toContain('Domiciliación');
  });

  it('refuses a language that is not one of the four', async () => {
    expect(isPdfLanguage('fr')).toBe(false);
    expect(isPdfLanguage('toString')).toBe(false);
    await expect(renderInvoicePdfBytes(input('fr' as PdfInput['language']))).rejects.toThrow(
      TypeError,
    );
  });

  it('builds no number or date formatter while drawing: a 500-line invoice made 1,000 of them', async () => {
    const many = input('es');
    const [line] = many.invoice.lines;
    many.invoice.lines = Array.from({ length: 50 }, (_, i) => ({
      ...(line as (typeof many.invoice.lines)[number]),
      quantity: i + 0.5,
    }));
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    const dateFormat = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const text = await new PDFParse({ data: await renderInvoicePdfBytes(many) })
        .getText()
        .then((r) => r.text);
      // The quantities are still written the Spanish way.
      expect(text).toContain('49,5');
      expect(numberFormat).not.toHaveBeenCalled();
      expect(dateFormat).not.toHaveBeenCalled();
    } finally {
      numberFormat.mockRestore();
      dateFormat.mockRestore();
    }
  });
});
