import type { Language } from '../mail/messages.ts';

export const contactMessages = {
  es: {
    copySubject: 'Hemos recibido tu mensaje',
    copyIntro:
      'Gracias por escribirnos. Te responderemos lo antes posible. Esta es una copia de tu mensaje:',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    copySubject: 'Hem rebut el teu missatge',
    copyIntro:
      "Gràcies per escriure'ns. Et respondrem tan aviat com puguem. Aquesta és una còpia del teu missatge:",
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    copySubject: 'We received your message',
    copyIntro:
      'Thank you for writing to us. We will answer as soon as possible. This is a copy of your message:',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    copySubject: 'Zure mezua jaso dugu',
    copyIntro:
      'Eskerrik asko idazteagatik. Ahalik eta lasterren erantzungo dizugu. Hau da zure mezuaren kopia:',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;
