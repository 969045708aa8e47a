import { languages } from '@portal/contract/languages';
import { describe, expect, it } from 'vitest';
import { autoPayMessages } from '../auto-pay/mail.ts';
import { contactMessages } from '../contact/messages.ts';
import { documentMessages } from '../documents/messages.ts';
import { fiscalDataMessages } from '../fiscal-data/messages.ts';
import { invitationMessages } from '../ingestion/messages.ts';
import { threadMailMessages } from '../invoice-threads/messages.ts';
import { pdfMessages } from '../invoices/pdf-messages.ts';
import { mandatePdfMessages } from '../mandates/pdf-messages.ts';
import { paymentMessages } from '../payments/messages.ts';
import { returnedDebitMessages } from '../returned-debits/messages.ts';
import { mailMessages } from './messages.ts';

/**
 * The server's own texts (e-mails and PDFs) in the four languages, as the web app's locale files
 * are checked by apps/web/src/lib/i18n.test.ts: every language has every text Spanish has, none
 * empty, with the same `{placeholders}`, and a worded function uses every argument it is given.
 * Types alone do not ensure it: several of these objects are only `satisfies Record<Language, ..>`.
 */
const catalogues: Record<string, Record<string, unknown>> = {
  'auto-pay/mail': autoPayMessages,
  'contact/messages': contactMessages,
  'documents/messages': documentMessages,
  'fiscal-data/messages': fiscalDataMessages,
  'ingestion/messages': invitationMessages,
  'invoice-threads/messages': threadMailMessages,
  'invoices/pdf-messages': pdfMessages,
  'mail/messages': mailMessages,
  'mandates/pdf-messages': mandatePdfMessages,
  'payments/messages': paymentMessages,
  'returned-debits/messages': returnedDebitMessages,
};

type Leaf = { kind: 'text'; text: string } | { kind: 'words'; arity: number; text: string };

/** Flattens a language's texts to path -> leaf; a function is worded with sample arguments. */
function leaves(node: unknown, path = ''): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  if (typeof node === 'string') {
    out.set(path, { kind: 'text', text: node });
  } else if (typeof node === 'function') {
    const args = Array.from({ length: node.length }, (_, i) => `ARG${i}`);
    out.set(path, { kind: 'words', arity: node.length, text: String(node(...args)) });
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      for (const [k, v] of leaves(value, path ? `${path}.${key}` : key)) out.set(k, v);
    }
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('server texts (e-mails and PDFs)', () => {
  for (const [name, catalogue] of Object.entries(catalogues)) {
    it(`${name}: exactly the four languages`, () => {
      expect(Object.keys(catalogue).sort()).toEqual([...languages].sort());
    });

    const spanish = leaves(catalogue.es);
    for (const language of languages.filter((l) => l !== 'es')) {
      it(`${name}: ${language} has every Spanish text, same placeholders, none empty`, () => {
        const texts = leaves(catalogue[language]);
        expect([...texts.keys()].sort()).toEqual([...spanish.keys()].sort());
        for (const [path, leaf] of texts) {
          const source = spanish.get(path);
          expect(leaf.text.trim(), `${language} ${path} is empty`).not.toBe('');
          expect(leaf.kind, `${language} ${path}`).toBe(source?.kind);
          expect(placeholders(leaf.text), `${language} ${path}`).toEqual(
            placeholders(source?.text ?? ''),
          );
          if (leaf.kind === 'words') {
            expect(leaf.arity, `${language} ${path}`).toBe(
              source?.kind === 'words' ? source.arity : -1,
            );
            for (let i = 0; i < leaf.arity; i++) {
              expect(leaf.text, `${language} ${path} drops argument ${i}`).toContain(`ARG${i}`);
            }
          }
        }
      });
    }
  }
});
