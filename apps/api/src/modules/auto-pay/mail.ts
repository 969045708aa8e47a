import type { Database } from '../../db/database.ts';
import { brandedHtml } from '../mail/layout.ts';
import { senderOf, type Mailer } from '../mail/mailer.ts';
import type { Language } from '../mail/messages.ts';
import { formatEuros } from '../payments/messages.ts';
import { loadTenantMailInfo, mailLogoUrl } from '../tenants/service.ts';
import { appPaths } from '@portal/contract/app-paths';

/*
 * The auto-pay e-mails, in the customer's language with the tenant's branding: the notice some
 * days before a charge, and the decline (the instalment is to be paid by hand). The receipt after
 * an authorised charge is the payments module's receipt, as for every card payment.
 */

type Words = {
  noticeSubject: string;
  noticeHeading: string;
  notice: (amount: string, date: string, card: string) => string;
  noticeOff: string;
  noticeButton: string;
  declinedSubject: string;
  declinedHeading: string;
  declined: (amount: string, invoice: string) => string;
  declinedRetry: string;
  declinedFinal: string;
  declinedButton: string;
  footer: string;
};

export const autoPayMessages: Record<Language, Words> = {
  es: {
    noticeSubject: 'Próximo cobro automático',
    noticeHeading: 'Próximo cobro con tu tarjeta',
    notice: (amount, date, card) =>
      `Cobraremos ${amount} el día ${date} con la tarjeta ${card}, como pediste en el pago automático.`,
    noticeOff: 'Puedes desactivarlo cuando quieras en Métodos de pago.',
    noticeButton: 'Ver mis métodos de pago',
    declinedSubject: 'No hemos podido cobrar tu plazo',
    declinedHeading: 'Cobro automático rechazado',
    declined: (amount, invoice) =>
      `El banco ha rechazado el cobro automático de ${amount} de la factura ${invoice}.`,
    declinedRetry: 'Lo intentaremos de nuevo en unos días; también puedes pagarlo ahora.',
    declinedFinal: 'No lo intentaremos más: págalo desde la oficina online.',
    declinedButton: 'Pagar la factura',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    noticeSubject: 'Proper cobrament automàtic',
    noticeHeading: 'Proper cobrament amb la teva targeta',
    notice: (amount, date, card) =>
      `Cobrarem ${amount} el dia ${date} amb la targeta ${card}, com vas demanar al pagament automàtic.`,
    noticeOff: 'Pots desactivar-lo quan vulguis a Mètodes de pagament.',
    noticeButton: 'Veure els meus mètodes de pagament',
    declinedSubject: 'No hem pogut cobrar el teu termini',
    declinedHeading: 'Cobrament automàtic rebutjat',
    declined: (amount, invoice) =>
      `El banc ha rebutjat el cobrament automàtic de ${amount} de la factura ${invoice}.`,
    declinedRetry: "Ho tornarem a intentar d'aquí a uns dies; també pots pagar-lo ara.",
    declinedFinal: "No ho intentarem més: paga'l des de l'oficina en línia.",
    declinedButton: 'Pagar la factura',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    noticeSubject: 'Upcoming automatic payment',
    noticeHeading: 'Upcoming charge to your card',
    notice: (amount, date, card) =>
      `We will charge ${amount} to your card ${card} on ${date}, as you asked when you turned on automatic payment.`,
    noticeOff: 'You can turn it off at any time in Payment methods.',
    noticeButton: 'See my payment methods',
    declinedSubject: 'We could not charge your instalment',
    declinedHeading: 'Automatic payment declined',
    declined: (amount, invoice) =>
      `The bank declined the automatic payment of ${amount} for invoice ${invoice}.`,
    declinedRetry: 'We will try again in a few days; you can also pay it now.',
    declinedFinal: 'We will not try again: please pay it in the online office.',
    declinedButton: 'Pay the invoice',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    noticeSubject: 'Hurrengo kobrantza automatikoa',
    noticeHeading: 'Hurrengo kobrantza zure txartelarekin',
    notice: (amount, date, card) =>
      `${amount} kobratuko dugu ${date} egunean ${card} txartelarekin, ordainketa automatikoan eskatu zenuen bezala.`,
    noticeOff: 'Nahi duzunean desaktiba dezakezu Ordainketa-metodoak atalean.',
    noticeButton: 'Ikusi nire ordainketa-metodoak',
    declinedSubject: 'Ezin izan dugu zure epea kobratu',
    declinedHeading: 'Kobrantza automatikoa ukatuta',
    declined: (amount, invoice) =>
      `Bankuak ${invoice} fakturaren ${amount}-ko kobrantza automatikoa ukatu du.`,
    declinedRetry: 'Egun batzuk barru berriro saiatuko gara; nahi baduzu, orain ordain dezakezu.',
    declinedFinal: 'Ez gara berriro saiatuko: ordaindu lineako bulegotik.',
    declinedButton: 'Ordaindu faktura',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
};

const languageOf = (language: string): Language =>
  language in autoPayMessages ? (language as Language) : 'es';

/** "···1234" from a masked card number (454881******1234). */
export const cardEnding = (masked: string | null): string =>
  masked ? `···${masked.slice(-4)}` : '···';

/** yyyy-mm-dd as the customer reads a date (dd/mm/yyyy). */
const readableDate = (iso: string) => iso.split('-').reverse().join('/');

export function createAutoPayMailer(db: Database, mailer: Mailer) {
  async function send(
    tenantId: string,
    to: string,
    message: {
      subject: string;
      heading: string;
      paragraphs: string[];
      button: { label: string; path: string };
      footer: string;
    },
  ) {
    const tenant = await loadTenantMailInfo(db, tenantId);
    const base = tenant.canonical_url.replace(/\/$/, '');
    const url = `${base}${message.button.path}`;
    await mailer.send({
      from: senderOf(tenant),
      to,
      subject: `${message.subject} · ${tenant.company_name}`,
      text: [...message.paragraphs, '', `${message.button.label}: ${url}`, '', message.footer].join(
        '\n',
      ),
      html: brandedHtml(
        {
          companyName: tenant.company_name,
          color: tenant.primary_color,
          logoUrl: mailLogoUrl(base, tenantId, tenant),
        },
        {
          heading: message.heading,
          paragraphs: message.paragraphs,
          button: { label: message.button.label, url },
          footer: message.footer,
        },
      ),
    });
  }

  return {
    /** "Cobraremos X € el día D con la tarjeta ···1234; puedes desactivarlo". */
    async notice(
      tenantId: string,
      to: { email: string; language: string },
      charge: { amountCents: number; dueDate: string; cardMasked: string | null },
    ) {
      const m = autoPayMessages[languageOf(to.language)];
      await send(tenantId, to.email, {
        subject: m.noticeSubject,
        heading: m.noticeHeading,
        paragraphs: [
          m.notice(
            formatEuros(charge.amountCents),
            readableDate(charge.dueDate),
            cardEnding(charge.cardMasked),
          ),
          m.noticeOff,
        ],
        button: { label: m.noticeButton, path: appPaths.paymentMethods },
        footer: m.footer,
      });
    },

    /** A declined charge: the instalment waits to be paid by hand (and maybe a retry). */
    async declined(
      tenantId: string,
      to: { email: string; language: string },
      charge: { amountCents: number; invoiceId: string; retry: boolean },
    ) {
      const m = autoPayMessages[languageOf(to.language)];
      await send(tenantId, to.email, {
        subject: m.declinedSubject,
        heading: m.declinedHeading,
        paragraphs: [
          m.declined(formatEuros(charge.amountCents), charge.invoiceId),
          charge.retry ? m.declinedRetry : m.declinedFinal,
        ],
        button: { label: m.declinedButton, path: appPaths.invoiceDetail.href(charge.invoiceId) },
        footer: m.footer,
      });
    },
  };
}
export type AutoPayMailer = ReturnType<typeof createAutoPayMailer>;
