import type { TInstalmentMethodKind } from '@portal/contract';

/** Lower case, without accents or repeated spaces: "Domiciliación  Bancaria" -> "domiciliacion bancaria". */
const fold = (text: string) =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const kinds: [RegExp, TInstalmentMethodKind][] = [
  [
    /^(domiciliacion|domiciliado|recibo domiciliado|recibo bancario|cargo en cuenta|adeudo|sepa|direct debit|bank debit|domiciliacio|rebut domiciliat|rebut bancari|carrec en compte|helbideratze|zordunketa)/,
    'direct_debit',
  ],
  [/^(tarjeta|targeta|card|txartel)/, 'card'],
  [
    /^(transferencia|transferencia bancaria|bank transfer|transfer|transferentzia)/,
    'bank_transfer',
  ],
  [/^(efectivo|efectiu|cash|eskudiru)/, 'cash'],
];

/**
 * The kind of an instalment's collection method, from the provider's free text (ingestion
 * `method`) or the portal's own 'Tarjeta' (a card payment): decided once here, served with the
 * text, worded by the web app and the PDF. A text it does not know is `other`, shown as written.
 */
export function instalmentMethodKind(method: string): TInstalmentMethodKind {
  const text = fold(method);
  return kinds.find(([pattern]) => pattern.test(text))?.[1] ?? 'other';
}
