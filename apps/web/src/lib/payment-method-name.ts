import type { TInstalmentMethodKind } from '@portal/contract';
import type { TFunction } from 'i18next';

/**
 * The name of an instalment's collection method in the reader's language: the server sends its
 * kind (decided once there from the provider's text); a kind it does not know (`other`) shows the
 * provider's own text. Used by the payments list and the invoice detail (the PDF has the same names).
 */
export function paymentMethodName(
  instalment: { method: string; method_kind: TInstalmentMethodKind },
  t: TFunction<'invoices'>,
): string {
  return instalment.method_kind === 'other'
    ? instalment.method
    : t(`paymentMethodKinds.${instalment.method_kind}`);
}
