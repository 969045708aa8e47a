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
  /** Query only: the card page is open ("operación en proceso de solicitud de datos de tarjeta"). */
  awaitingCard: '9998',
  /** Query only: the 3DS challenge is open ("operación redirigida al emisor a autenticar"). */
  awaitingAuthentication: '9999',
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

/**
 * Error of the query service: "No existen operaciones para los datos solicitados", the code of
 * Redsys' own query web service when it knows no such order.
 */
export const QUERY_NOT_FOUND = 'XML0024';
