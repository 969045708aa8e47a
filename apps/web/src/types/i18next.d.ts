import type common from '@/locales/es/common.json';
import type invoices from '@/locales/es/invoices.json';
import type auth from '@/locales/es/auth.json';
import type checkout from '@/locales/es/checkout.json';
import type legal from '@/locales/es/legal.json';
import type paymentMethods from '@/locales/es/payment-methods.json';
import type notifications from '@/locales/es/notifications.json';
import type contact from '@/locales/es/contact.json';
import type sessions from '@/locales/es/sessions.json';
import type profile from '@/locales/es/profile.json';
import type fiscalData from '@/locales/es/fiscal-data.json';
import type threads from '@/locales/es/threads.json';

// Module augmentation, the way i18next types translation keys, needs `interface`.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      invoices: typeof invoices;
      auth: typeof auth;
      checkout: typeof checkout;
      legal: typeof legal;
      'payment-methods': typeof paymentMethods;
      notifications: typeof notifications;
      contact: typeof contact;
      sessions: typeof sessions;
      profile: typeof profile;
      'fiscal-data': typeof fiscalData;
      threads: typeof threads;
    };
  }
}
