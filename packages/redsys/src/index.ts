export { RedsysError } from './errors.ts';
export type { RedsysErrorCode } from './errors.ts';
export {
  decodeMerchantParameters,
  encodeMerchantParameters,
  getParameter,
} from './merchant-parameters.ts';
export type { MerchantParameters } from './merchant-parameters.ts';
export {
  SIGNATURE_VERSIONS,
  deriveOrderKey,
  isSignatureVersion,
  orderOf,
  sign,
  verify,
} from './signature.ts';
export type { SignatureVersion } from './signature.ts';
export {
  createNotification,
  createPaymentRequest,
  readNotification,
  readPaymentRequest,
} from './messages.ts';
export type { ReadFailure, ReadResult, SignedMessage, UntrustedSignedMessage } from './messages.ts';
export { isAuthorised } from './response-codes.ts';
export { isValidOrderNumber, newOrderNumber } from './order-number.ts';
export { amountToRedsys } from './amount.ts';
export { isSameTerminal, padTerminal } from './terminal.ts';
export { PUBLIC_TEST_MERCHANT } from './test-merchant.ts';
