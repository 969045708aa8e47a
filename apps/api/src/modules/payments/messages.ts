import type { Language } from '../mail/messages.ts';

/** Texts of the payment notifications and the receipt e-mail, in the portal's four languages. */
export const paymentMessages = {
  es: {
    paidTitle: 'Pago recibido',
    paidMessage: (amount: string, invoices: string) =>
      `Hemos recibido tu pago de ${amount} (${invoices}). ¡Gracias!`,
    failedTitle: 'Pago no completado',
    failedMessage: (amount: string) =>
      `El pago de ${amount} no se ha completado. Puedes intentarlo de nuevo.`,
    receiptSubject: 'Justificante de pago',
    receiptHeading: 'Pago recibido',
    receiptIntro: 'Hemos recibido tu pago con tarjeta. Estos son los datos de la operación:',
    amount: 'Importe',
    invoices: 'Facturas',
    order: 'Número de operación',
    date: 'Fecha',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    paidTitle: 'Pagament rebut',
    paidMessage: (amount: string, invoices: string) =>
      `Hem rebut el teu pagament de ${amount} (${invoices}). Gràcies!`,
    failedTitle: 'Pagament no completat',
    failedMessage: (amount: string) =>
      `El pagament de ${amount} no s'ha completat. Pots tornar-ho a provar.`,
    receiptSubject: 'Justificant de pagament',
    receiptHeading: 'Pagament rebut',
    receiptIntro: "Hem rebut el teu pagament amb targeta. Aquestes són les dades de l'operació:",
    amount: 'Import',
    invoices: 'Factures',
    order: "Número d'operació",
    date: 'Data',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    paidTitle: 'Payment received',
    paidMessage: (amount: string, invoices: string) =>
      `We received your payment of ${amount} (${invoices}). Thank you!`,
    failedTitle: 'Payment not completed',
    failedMessage: (amount: string) =>
      `The payment of ${amount} was not completed. You can try again.`,
    receiptSubject: 'Payment receipt',
    receiptHeading: 'Payment received',
    receiptIntro: 'We received your card payment. These are the details:',
    amount: 'Amount',
    invoices: 'Invoices',
    order: 'Operation number',
    date: 'Date',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    paidTitle: 'Ordainketa jasota',
    paidMessage: (amount: string, invoices: string) =>
      `Zure ${amount}eko ordainketa jaso dugu (${invoices}). Eskerrik asko!`,
    failedTitle: 'Ordainketa ez da osatu',
    failedMessage: (amount: string) =>
      `${amount}eko ordainketa ez da osatu. Berriro saia zaitezke.`,
    receiptSubject: 'Ordainagiria',
    receiptHeading: 'Ordainketa jasota',
    receiptIntro: 'Txartelarekin egindako ordainketa jaso dugu. Hauek dira eragiketaren datuak:',
    amount: 'Zenbatekoa',
    invoices: 'Fakturak',
    order: 'Eragiketa-zenbakia',
    date: 'Data',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string | ((...args: string[]) => string)>>;

/** Redsys' Ds_Merchant_ConsumerLanguage codes. */
export const redsysLanguage: Record<Language, string> = {
  es: '001',
  en: '002',
  ca: '003',
  eu: '013',
};

export const formatEuros = (cents: number): string =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(cents / 100);
