import { paths } from '@/config/paths';
import type { ApiResponse } from '@/lib/api-client';
import type { StatusTone } from '@/components/ui/status-badge';
import type { Translate } from '../texts';

export type PaymentMethod = ApiResponse<'paymentMethods'>['methods'][number];
export type MethodStatus = PaymentMethod['status'];
export type MethodKind = PaymentMethod['kind'];

/** One colour per status: usable, switched off, waiting for the provider's check. */
export const methodStatusTones: Record<MethodStatus, StatusTone> = {
  active: 'success',
  inactive: 'neutral',
  unverified: 'warning',
};

/** The last four digits of a card's masked number or of an IBAN. */
export function lastFour(method: Pick<PaymentMethod, 'card_masked' | 'iban'>): string | null {
  const digits = (method.card_masked ?? method.iban ?? '').replace(/[^0-9]/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/** `ES91 2100 0418 4502 0005 1332` -> `ES91 •••• 1332`: enough to recognise it in a list. */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s/g, '');
  if (compact.length < 8) return iban;
  return `${compact.slice(0, 4)} •••• ${compact.slice(-4)}`;
}

/** What the customer calls the method: its alias, else the card's brand, else its kind. */
export function methodName(method: PaymentMethod, t: Translate): string {
  const alias = method.alias.trim();
  if (alias) return alias;
  if (method.kind === 'card' && method.card_brand) return method.card_brand;
  return t(`kinds.${method.kind}`);
}

/** The view of one method, by kind (the list's links). */
export function methodHref(method: Pick<PaymentMethod, 'id' | 'kind'>): string {
  const id = encodeURIComponent(method.id);
  switch (method.kind) {
    case 'card':
      return `${paths.creditCard}?id=${id}`;
    case 'bank_account':
      return `${paths.bankAccount}?id=${id}`;
    case 'bank_transfer':
      return paths.bankData;
  }
}
