/**
 * True only for Ds_Response 0000-0099: an authorised payment. Everything else is not, including
 * 0900 (refund/confirmation accepted), 0400 (cancellation accepted) and 9xxx errors, which
 * redsys-easy's `isResponseCodeOk` would accept.
 */
export function isAuthorised(dsResponse: string): boolean {
  if (typeof dsResponse !== 'string' || !/^\d{4}$/.test(dsResponse)) return false;
  return Number(dsResponse) <= 99;
}

/**
 * Ds_Response 9915: the customer pressed "Cancel" on the gateway's page (redsys-notes.md, L1/L5/L8).
 * Not a failure to tell the customer about: they chose it.
 */
export function isCustomerCancel(dsResponse: string): boolean {
  return dsResponse === '9915';
}

/**
 * Ds_Response 0913, "Pedido repetido": Redsys refused a second post of an order it already holds
 * (redsys-notes §5, §6). It says nothing of the order's own outcome, which may well be authorised.
 */
export function isRepeatedOrder(dsResponse: string): boolean {
  return dsResponse === '0913';
}
