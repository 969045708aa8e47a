import type { Language } from '../mail/messages.ts';

/** The e-mail telling a customer the organisation answered their question about an invoice. */
export const threadMailMessages = {
  es: {
    answerSubject: 'Respuesta sobre tu factura {invoice}',
    answerHeading: 'Te hemos respondido',
    answerIntro: 'Hemos respondido a tu consulta sobre la factura {invoice}.',
    answerRead: 'Por tu privacidad, la respuesta solo se muestra en la oficina online.',
    answerButton: 'Ver conversación',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    answerSubject: 'Resposta sobre la teva factura {invoice}',
    answerHeading: "T'hem respost",
    answerIntro: 'Hem respost la teva consulta sobre la factura {invoice}.',
    answerRead: "Per la teva privacitat, la resposta només es mostra a l'oficina en línia.",
    answerButton: 'Veure la conversa',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    answerSubject: 'Answer about your invoice {invoice}',
    answerHeading: 'We have replied',
    answerIntro: 'We have answered your question about invoice {invoice}.',
    answerRead: 'For your privacy, the answer is only shown in the online office.',
    answerButton: 'View conversation',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    answerSubject: 'Zure {invoice} fakturari buruzko erantzuna',
    answerHeading: 'Erantzun dizugu',
    answerIntro: '{invoice} fakturari buruzko zure kontsultari erantzun diogu.',
    answerRead: 'Zure pribatutasuna babesteko, erantzuna lineako bulegoan bakarrik erakusten da.',
    answerButton: 'Ikusi elkarrizketa',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;
