/**
 * Ds_Response values the simulator answers, all real Redsys codes. Only 0000-0099 mean paid
 * (`isAuthorised` in @portal/redsys).
 */
export const DS_RESPONSE = {
  authorised: '0000',
  /** "Denegación del emisor sin especificar motivo": the declined test card, forced decline. */
  declined: '0190',
  /** "Error en la autenticación del titular": a wrong 3DS challenge code. */
  authenticationFailed: '0184',
  /**
   * "Tarjeta ajena al servicio": a Ds_Merchant_Identifier this simulator never issued (or issued
   * to another merchant). The real Redsys answers such a request with an SIS0466 error page and
   * no notification; the simulator declines with a notification instead, so the portal's failure
   * path runs end to end.
   */
  unknownReference: '0180',
  /** "A petición del usuario se ha cancelado el pago". */
  cancelled: '9915',
  /** Bizum answered KO (redsys-notes §3): the customer rejected it in the bank's app, or forced. */
  bizumDeclined: '9966',
  /** "Devolución no permitida": a refund of a payment that was not authorised. */
  refundNotAllowed: '0950',
} as const;

/** SIS error codes shown (like Redsys) on an error page instead of the card page; no notification. */
export const SIS_ERRORS = {
  SIS0008: 'Falta Ds_Merchant_MerchantCode',
  SIS0010: 'Falta Ds_Merchant_Terminal',
  SIS0015: 'Falta Ds_Merchant_Currency',
  SIS0018: 'Falta Ds_Merchant_Amount',
  SIS0019: 'Error de formato en Ds_Merchant_Amount',
  SIS0014: 'Error de formato en Ds_Merchant_Order',
  SIS0023: 'Ds_Merchant_TransactionType desconocido',
  SIS0026: 'No existe el comercio / terminal enviado',
  SIS0027: 'Revisar la moneda que está enviando',
  SIS0042: 'Error en el cálculo de la firma',
  SIS0051: 'Número de pedido repetido',
  SIS0074: 'Falta Ds_Merchant_Order',
  SIS0081: 'La sesión ha caducado o no existe',
  SIS0429: 'Error en la versión enviada por el comercio en el parámetro Ds_SignatureVersion',
  SIS0430: 'Error al decodificar el parámetro Ds_MerchantParameters (base64 de un objeto JSON)',
} as const;
export type SisErrorCode = keyof typeof SIS_ERRORS;

/** Unsigned errors of a refund through trataPeticionREST (Redsys' "Errores SIS"). */
export const REFUND_ERRORS = {
  /** "No existe operación sobre la que realizar la devolución". */
  noPayment: 'SIS0054',
  /** "El importe de la devolución supera el permitido". */
  amountTooHigh: 'SIS0057',
} as const;

/** Unsigned errors of a merchant-initiated (MIT) charge through trataPeticionREST. */
export const MIT_ERRORS = {
  /** "EXCEP_SCA MIT without COF or reference data" (redsys-notes §4.2). */
  noCofData: 'SIS0617',
  /** "Invalid EXCEP_SCA value". */
  badException: 'SIS0616',
  /** The reference is not this merchant's (or was never issued): Redsys' SIS0466. */
  unknownReference: 'SIS0466',
  /** "Número de pedido repetido". */
  repeatedOrder: 'SIS0051',
} as const;
