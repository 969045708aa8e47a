/**
 * A line's amount before VAT, in cents: its quantity (up to three decimals, as ingestion takes it)
 * times its unit price, rounded half away from zero to the cent, in exact integer arithmetic. The
 * one place it is computed: the invoice detail serves it, and the web page and the PDF show it.
 * Before session 37 each computed it in floating point and they disagreed: 1,5 x 0,35 was 0,52
 * on the PDF (1.5 * 0.35 * 100 is 52.49999...) and 0,53 on the page; -1,5 x 0,35 was -0,52 on
 * the page (Math.round rounds halves up, not away from zero).
 */
export function lineAmountCents(unitPriceCents: number, quantity: number): number {
  const thousandths = BigInt(Math.round(quantity * 1000));
  const product = BigInt(Math.round(unitPriceCents)) * thousandths;
  const magnitude = product < 0n ? -product : product;
  const rounded = (magnitude + 500n) / 1000n;
  return Number(product < 0n ? -rounded : rounded);
}
