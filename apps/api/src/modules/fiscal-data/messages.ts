import type { Language } from '../mail/messages.ts';

/**
 * Texts of the e-mail that tells the customer the organisation decided their fiscal data request,
 * in the portal's four languages (the notification of the same decision is worded by the web app).
 */
export const fiscalDataMessages = {
  es: {
    subject: 'Tu solicitud de cambio de datos fiscales',
    approvedHeading: 'Cambio de datos fiscales aprobado',
    approvedIntro:
      'La organización ha aprobado tu solicitud de cambio de datos fiscales. Tus facturas usarán a partir de ahora estos datos:',
    rejectedHeading: 'Cambio de datos fiscales rechazado',
    rejectedIntro:
      'La organización ha rechazado tu solicitud de cambio de datos fiscales. Tus datos fiscales no han cambiado.',
    reason: 'Motivo: {reason}',
    rejectedNext: 'Si lo necesitas, puedes enviar una nueva solicitud desde tu perfil.',
    button: 'Ver mi perfil',
    fields: {
      invoice_name: 'Razón social',
      nif: 'NIF',
      address: 'Dirección',
      city: 'Población',
      country: 'País',
    },
  },
  ca: {
    subject: 'La teva sol·licitud de canvi de dades fiscals',
    approvedHeading: 'Canvi de dades fiscals aprovat',
    approvedIntro:
      "L'organització ha aprovat la teva sol·licitud de canvi de dades fiscals. A partir d'ara les teves factures faran servir aquestes dades:",
    rejectedHeading: 'Canvi de dades fiscals rebutjat',
    rejectedIntro:
      "L'organització ha rebutjat la teva sol·licitud de canvi de dades fiscals. Les teves dades fiscals no han canviat.",
    reason: 'Motiu: {reason}',
    rejectedNext: 'Si ho necessites, pots enviar una sol·licitud nova des del teu perfil.',
    button: 'Veure el meu perfil',
    fields: {
      invoice_name: 'Raó social',
      nif: 'NIF',
      address: 'Adreça',
      city: 'Població',
      country: 'País',
    },
  },
  en: {
    subject: 'Your request to change your tax details',
    approvedHeading: 'Tax details change approved',
    approvedIntro:
      'The organisation has approved your request to change your tax details. Your invoices will use these details from now on:',
    rejectedHeading: 'Tax details change rejected',
    rejectedIntro:
      'The organisation has rejected your request to change your tax details. Your tax details have not changed.',
    reason: 'Reason: {reason}',
    rejectedNext: 'If you need to, you can send a new request from your profile.',
    button: 'View my profile',
    fields: {
      invoice_name: 'Business name',
      nif: 'Tax ID (NIF/NIE/CIF)',
      address: 'Address',
      city: 'Town or city',
      country: 'Country',
    },
  },
  eu: {
    subject: 'Datu fiskalak aldatzeko zure eskaera',
    approvedHeading: 'Datu fiskalen aldaketa onartuta',
    approvedIntro:
      'Erakundeak datu fiskalak aldatzeko zure eskaera onartu du. Aurrerantzean zure fakturek datu hauek erabiliko dituzte:',
    rejectedHeading: 'Datu fiskalen aldaketa baztertuta',
    rejectedIntro:
      'Erakundeak datu fiskalak aldatzeko zure eskaera baztertu du. Zure datu fiskalak ez dira aldatu.',
    reason: 'Arrazoia: {reason}',
    rejectedNext: 'Behar baduzu, eskaera berri bat bidal dezakezu zure profiletik.',
    button: 'Ikusi nire profila',
    fields: {
      invoice_name: 'Sozietatearen izena',
      nif: 'IFZ',
      address: 'Helbidea',
      city: 'Herria',
      country: 'Herrialdea',
    },
  },
} satisfies Record<Language, unknown>;
