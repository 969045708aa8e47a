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
    overpaidTitle: 'Pago duplicado: te lo devolvemos',
    overpaidManualTitle: 'Pago duplicado: lo revisamos',
    overpaidMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Tu pago de ${amount} llegó cuando ${invoices} ya estaba pagado. Te devolvemos ${refund} a la misma tarjeta.`
        : `De tu pago de ${amount}, ${refund} correspondían a algo ya pagado (${invoices}). Te devolvemos ${refund} a la misma tarjeta.`,
    overpaidManualMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Tu pago de ${amount} llegó cuando ${invoices} ya estaba pagado. Nuestro equipo te devolverá ${refund} y te avisará.`
        : `De tu pago de ${amount}, ${refund} correspondían a algo ya pagado (${invoices}). Nuestro equipo te devolverá ${refund} y te avisará.`,
    refundedTitle: 'Devolución hecha',
    refundedMessage: (refund: string, invoices: string) =>
      `Te hemos devuelto ${refund} a tu tarjeta (pago duplicado de ${invoices}). Puede tardar unos días en verse en tu cuenta.`,
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
    overpaidTitle: "Pagament duplicat: te'l retornem",
    overpaidManualTitle: 'Pagament duplicat: el revisem',
    overpaidMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `El teu pagament de ${amount} va arribar quan ${invoices} ja estava pagat. Et retornem ${refund} a la mateixa targeta.`
        : `Del teu pagament de ${amount}, ${refund} corresponien a una cosa ja pagada (${invoices}). Et retornem ${refund} a la mateixa targeta.`,
    overpaidManualMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `El teu pagament de ${amount} va arribar quan ${invoices} ja estava pagat. El nostre equip et retornarà ${refund} i t'avisarà.`
        : `Del teu pagament de ${amount}, ${refund} corresponien a una cosa ja pagada (${invoices}). El nostre equip et retornarà ${refund} i t'avisarà.`,
    refundedTitle: 'Devolució feta',
    refundedMessage: (refund: string, invoices: string) =>
      `T'hem retornat ${refund} a la targeta (pagament duplicat de ${invoices}). Pot trigar uns dies a aparèixer al compte.`,
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
    overpaidTitle: 'Duplicate payment: we are refunding it',
    overpaidManualTitle: 'Duplicate payment: we are reviewing it',
    overpaidMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Your payment of ${amount} arrived when ${invoices} was already paid. We are refunding ${refund} to the same card.`
        : `Of your payment of ${amount}, ${refund} was for something already paid (${invoices}). We are refunding ${refund} to the same card.`,
    overpaidManualMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Your payment of ${amount} arrived when ${invoices} was already paid. Our team will refund ${refund} and let you know.`
        : `Of your payment of ${amount}, ${refund} was for something already paid (${invoices}). Our team will refund ${refund} and let you know.`,
    refundedTitle: 'Refund made',
    refundedMessage: (refund: string, invoices: string) =>
      `We refunded ${refund} to your card (duplicate payment of ${invoices}). It may take a few days to show in your account.`,
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
    overpaidTitle: 'Ordainketa bikoiztua: itzuliko dizugu',
    overpaidManualTitle: 'Ordainketa bikoiztua: berrikusiko dugu',
    overpaidMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Zure ${amount}eko ordainketa ${invoices} ordainduta zegoenean iritsi zen. ${refund} itzuliko dizkizugu txartel berean.`
        : `Zure ${amount}eko ordainketatik, ${refund} ordainduta zegoen zerbaitena zen (${invoices}). ${refund} itzuliko dizkizugu txartel berean.`,
    overpaidManualMessage: (amount: string, refund: string, invoices: string) =>
      amount === refund
        ? `Zure ${amount}eko ordainketa ${invoices} ordainduta zegoenean iritsi zen. Gure taldeak ${refund} itzuliko dizkizu eta jakinaraziko dizu.`
        : `Zure ${amount}eko ordainketatik, ${refund} ordainduta zegoen zerbaitena zen (${invoices}). Gure taldeak ${refund} itzuliko dizkizu eta jakinaraziko dizu.`,
    refundedTitle: 'Itzulketa eginda',
    refundedMessage: (refund: string, invoices: string) =>
      `${refund} itzuli dizkizugu txartelean (${invoices}: ordainketa bikoiztua). Egun batzuk behar izan ditzake kontuan agertzeko.`,
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
