/** Why a Redsys value could not be built or read; callers branch on `code`, never on the message. */
export type RedsysErrorCode =
  | 'INVALID_MERCHANT_PARAMETERS'
  | 'INVALID_SECRET'
  | 'MISSING_ORDER'
  | 'INVALID_AMOUNT'
  | 'INVALID_QUERY'
  | 'INVALID_REFUND'
  | 'INVALID_CHARGE';

export class RedsysError extends Error {
  readonly code: RedsysErrorCode;

  constructor(code: RedsysErrorCode, message: string) {
    super(message);
    this.name = 'RedsysError';
    this.code = code;
  }
}
