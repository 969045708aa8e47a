import type common from '@/locales/es/common.json';
import type invoices from '@/locales/es/invoices.json';
import type auth from '@/locales/es/auth.json';
import type checkout from '@/locales/es/checkout.json';

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
    };
  }
}
