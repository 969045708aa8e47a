import { readFileSync } from 'node:fs';
import { isSepaCreditorId, sepaCreditorCheckDigits } from '@portal/contract/sepa-mandates';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { renderMandatePdfBytes, type MandatePdfInput } from './pdf.ts';
import { mandatePdfMessages } from './pdf-messages.ts';
import { newMandateReference } from './service.ts';

const languages = ['es', 'ca', 'en', 'eu'] as const;

const webMandateTexts = (language: string) =>
  (
    JSON.parse(
      readFileSync(
        new URL(`../../../../web/src/locales/${language}/payment-methods.json`, import.meta.url),
        'utf8',
      ),
    ) as {
      mandate: {
        documentTitle: string;
        recurrent: string;
        legal: string;
        states: Record<string, string>;
      };
    }
  ).mandate;

const input = (language: MandatePdfInput['language']): MandatePdfInput => ({
  mandate: {
    reference: 'M-20261126-8F3A1C9E2B7D',
    status: 'replaced',
    creditor_id: 'ES11ZZZB12345674',
    creditor_name: 'Club Acme SL',
    creditor_address: 'Moll 1, 08002 Barcelona',
    debtor_name: 'Laura García Martín',
    debtor_nif: '12345678Z',
    iban: 'ES91 2100 0418 4502 0005 1332',
    signed_at: new Date('2026-11-26T10:15:00.000Z'),
    signer_ip: '203.0.113.7',
    replaces_reference: null,
    replaced_by_reference: 'M-20261127-0A1B2C3D4E5F',
  },
  brand: { primary_color: '1F7A4D', logo_mime: null, logo_data: null },
  language,
  createdAt: new Date('2026-11-26T10:15:00.000Z'),
});

describe('the SEPA mandate texts and PDF', () => {
  it.each(languages)('%s: the signed text is the one the portal shows', (language) => {
    const web = webMandateTexts(language);
    const pdf = mandatePdfMessages[language];
    expect(pdf.legal).toBe(web.legal);
    expect(pdf.title).toBe(web.documentTitle);
    expect(pdf.recurrent).toBe(web.recurrent);
    expect(pdf.states).toEqual(web.states);
  });

  it.each(languages)(
    '%s: the PDF carries the parties, the text, the evidence and the state',
    async (language) => {
      const parser = new PDFParse({ data: await renderMandatePdfBytes(input(language)) });
      const { text, total } = await parser.getText();
      await parser.destroy();
      const flat = text.replace(/\s+/g, ' ');
      const m = mandatePdfMessages[language];
      expect(total).toBe(1);
      for (const expected of [
        m.title,
        'M-20261126-8F3A1C9E2B7D',
        'ES11ZZZB12345674',
        'Club Acme SL',
        'Laura García Martín',
        'ES91 2100 0418 4502 0005 1332',
        m.recurrent,
        m.states.replaced,
        'M-20261127-0A1B2C3D4E5F',
        '203.0.113.7',
        '26/11/2026',
      ]) {
        expect(flat).toContain(expected);
      }
      // The legal text whole (line breaks aside).
      expect(flat.replace(/- /g, '-')).toContain(m.legal.slice(0, 60));
    },
  );

  it('refuses a language it has no texts for', async () => {
    await expect(
      renderMandatePdfBytes(input('fr' as MandatePdfInput['language'])),
    ).rejects.toThrow();
  });

  it('makes references of the SEPA set, at most 35 characters', () => {
    const reference = newMandateReference(new Date('2026-11-26T10:15:00Z'));
    expect(reference).toMatch(/^M-20261126-[0-9A-F]{12}$/);
    expect(reference.length).toBeLessThanOrEqual(35);
    expect(newMandateReference(new Date())).not.toBe(newMandateReference(new Date()));
  });

  it('checks creditor identifiers by ISO 7064 mod 97-10', () => {
    expect(isSepaCreditorId('ES11ZZZB12345674')).toBe(true);
    expect(isSepaCreditorId('es11 zzz b12345674')).toBe(true);
    expect(isSepaCreditorId('DE98ZZZ09999999999')).toBe(true);
    expect(isSepaCreditorId('ES12ZZZB12345674')).toBe(false);
    expect(isSepaCreditorId('ES11ZZZ')).toBe(false);
    expect(isSepaCreditorId('')).toBe(false);
    expect(sepaCreditorCheckDigits('ES', 'B12345674')).toBe('11');
  });
});
