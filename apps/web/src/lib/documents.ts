import type { TInvoicesZipRequest } from '@portal/contract';
import { apiRequest } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';

/**
 * The signed five-minute links of the documents of issue 23, item 3 (receipt, statement, invoice
 * archive), asked for when a download button is pressed: the invoice PDF's pattern. Shared by the
 * features that offer them (the payment result, the documents page, the invoice list).
 */
export async function getReceiptUrl(paymentId: string, language: Language): Promise<string> {
  const { url } = await apiRequest('receiptLink', { body: { payment_id: paymentId, language } });
  return url;
}

export async function getStatementUrl(
  range: { datefrom: string; dateto: string },
  format: 'pdf' | 'csv',
  language: Language,
): Promise<string> {
  const { url } = await apiRequest('statementLink', { body: { ...range, format, language } });
  return url;
}

export async function getInvoicesZipUrl(
  by: Omit<TInvoicesZipRequest, 'language'>,
  language: Language,
): Promise<string> {
  const { url } = await apiRequest('invoicesZipLink', { body: { ...by, language } });
  return url;
}

/** File names the browser saves (the server's own name wins where it sends one). */
export const receiptFileName = (orderId: string) => `justificante-${orderId}.pdf`;
export const statementFileName = (
  range: { datefrom: string; dateto: string },
  format: 'pdf' | 'csv',
) => `extracto-${range.datefrom}-${range.dateto}.${format}`;
export const invoicesZipFileName = 'facturas.zip';
