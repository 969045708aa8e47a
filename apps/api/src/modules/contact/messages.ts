import type { Language } from '../mail/messages.ts';

export const contactMessages = {
  es: {
    copySubject: 'Hemos recibido tu mensaje',
    copyIntro:
      'Gracias por escribirnos. Hemos recibido tu mensaje y te responderemos lo antes posible.',
    copyNote: 'Por tu seguridad, este aviso no repite lo que escribiste.',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    copySubject: 'Hem rebut el teu missatge',
    copyIntro:
      "Gràcies per escriure'ns. Hem rebut el teu missatge i et respondrem tan aviat com puguem.",
    copyNote: 'Per la teva seguretat, aquest avís no repeteix el que vas escriure.',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    copySubject: 'We received your message',
    copyIntro:
      'Thank you for writing to us. We received your message and will answer as soon as possible.',
    copyNote: 'For your security, this notice does not repeat what you wrote.',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    copySubject: 'Zure mezua jaso dugu',
    copyIntro:
      'Eskerrik asko idazteagatik. Zure mezua jaso dugu eta ahalik eta lasterren erantzungo dizugu.',
    copyNote: 'Zure segurtasunagatik, abisu honek ez du errepikatzen idatzi zenuena.',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;
