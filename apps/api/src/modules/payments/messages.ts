import { CONSUMER_LANGUAGES } from '@portal/redsys';
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
    receiptIntroBizum: 'Hemos recibido tu pago con Bizum. Estos son los datos de la operación:',
    receiptIntroPaypal: 'Hemos recibido tu pago con PayPal. Estos son los datos de la operación:',
    amount: 'Importe',
    invoices: 'Facturas',
    order: 'Número de operación',
    date: 'Fecha',
    receiptButton: 'Ver la factura en la oficina online',
    receiptButtonPayments: 'Ver mis pagos en la oficina online',
    receiptLinkNote: 'El botón te deja entrar sin contraseña durante 24 horas y una sola vez.',
    receiptPdf: 'Justificante en PDF (en la oficina online)',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    receiptSubject: 'Justificant de pagament',
    receiptHeading: 'Pagament rebut',
    receiptIntro: "Hem rebut el teu pagament amb targeta. Aquestes són les dades de l'operació:",
    receiptIntroBizum: "Hem rebut el teu pagament amb Bizum. Aquestes són les dades de l'operació:",
    receiptIntroPaypal:
      "Hem rebut el teu pagament amb PayPal. Aquestes són les dades de l'operació:",
    amount: 'Import',
    invoices: 'Factures',
    order: "Número d'operació",
    date: 'Data',
    receiptButton: "Veure la factura a l'oficina en línia",
    receiptButtonPayments: "Veure els meus pagaments a l'oficina en línia",
    receiptLinkNote: 'El botó et deixa entrar sense contrasenya durant 24 hores i una sola vegada.',
    receiptPdf: "Justificant en PDF (a l'oficina en línia)",
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    receiptSubject: 'Payment receipt',
    receiptHeading: 'Payment received',
    receiptIntro: 'We received your card payment. These are the details:',
    receiptIntroBizum: 'We received your Bizum payment. These are the details:',
    receiptIntroPaypal: 'We received your PayPal payment. These are the details:',
    amount: 'Amount',
    invoices: 'Invoices',
    order: 'Operation number',
    date: 'Date',
    receiptButton: 'See the invoice in the online office',
    receiptButtonPayments: 'See my payments in the online office',
    receiptLinkNote: 'The button signs you in without a password, once, for 24 hours.',
    receiptPdf: 'Receipt as PDF (in the online office)',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    receiptSubject: 'Ordainagiria',
    receiptHeading: 'Ordainketa jasota',
    receiptIntro: 'Txartelarekin egindako ordainketa jaso dugu. Hauek dira eragiketaren datuak:',
    receiptIntroBizum: 'Bizum bidez egindako ordainketa jaso dugu. Hauek dira eragiketaren datuak:',
    receiptIntroPaypal:
      'PayPal bidez egindako ordainketa jaso dugu. Hauek dira eragiketaren datuak:',
    amount: 'Zenbatekoa',
    invoices: 'Fakturak',
    order: 'Eragiketa-zenbakia',
    date: 'Data',
    receiptButton: 'Ikusi faktura lineako bulegoan',
    receiptButtonPayments: 'Ikusi nire ordainketak lineako bulegoan',
    receiptLinkNote: 'Botoiak pasahitzik gabe sartzen uzten dizu, behin, 24 orduz.',
    receiptPdf: 'Ordainagiria PDFn (lineako bulegoan)',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string | ((...args: string[]) => string)>>;

/** Redsys' Ds_Merchant_ConsumerLanguage codes (the simulator reads the same list). */
export const redsysLanguage: Record<Language, string> = CONSUMER_LANGUAGES;

/** Made once: an Intl.NumberFormat costs far more to build than to use. */
const euros = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });
export const formatEuros = (cents: number): string => euros.format(cents / 100);
