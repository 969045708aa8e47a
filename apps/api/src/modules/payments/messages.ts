import type { Language } from '../mail/messages.ts';

/**
 * Texts of the receipt e-mail, in the portal's four languages. The payment notifications have no
 * text on the server: the web app words them from their type and parameters.
 */
export const paymentMessages = {
  es: {
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
