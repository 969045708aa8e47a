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
  createRestResponse,
  readNotification,
  readPaymentRequest,
  readRestResponse,
} from './messages.ts';
export type { ReadFailure, ReadResult, SignedMessage, UntrustedSignedMessage } from './messages.ts';
export { isAuthorised, isCustomerCancel, isRepeatedOrder } from './response-codes.ts';
export { isValidOrderNumber, newOrderNumber } from './order-number.ts';
export { amountToRedsys } from './amount.ts';
export { isSameTerminal, padTerminal } from './terminal.ts';
export { PUBLIC_TEST_MERCHANT, signsAsPublicTestKey } from './test-merchant.ts';
export {
  QUERY_BAD_ORDER,
  QUERY_BAD_SIGNATURE,
  QUERY_NOT_FOUND,
  QUERY_SERVICE_PATH,
  QUERY_SOAP_ACTION,
  classifyOperation,
  createQueryAnswer,
  createQueryRequest,
  isApproved,
  readQueryAnswer,
  readQueryMessages,
  readQueryRequest,
  signQueryVersion,
  verifyQuerySignature,
} from './query.ts';
export type {
  OperationOutcome,
  QueryAnswer,
  QueryAnswerFailure,
  QueryMessage,
  QueryOperation,
  QueryRequest,
  QueryRequestInput,
  ReadQueryRequest,
} from './query.ts';
export {
  REFUND_APPROVED,
  REST_SERVICE_PATH,
  createRefundRequest,
  readRefundAnswer,
} from './refund.ts';
export type { RefundAnswer, RefundRequestInput } from './refund.ts';
export {
  BIZUM_DECLINED,
  BIZUM_TRANSACTION_TYPES,
  PAY_METHODS,
  PROCESSED_PAY_METHOD,
  isBizumProcessed,
  isBizumRequest,
} from './pay-methods.ts';
export type { PayMethodCode } from './pay-methods.ts';
export { createMitChargeRequest, readMitChargeAnswer } from './mit.ts';
export type { CofType, MitChargeAnswer, MitChargeInput } from './mit.ts';
export { CONSUMER_LANGUAGES, consumerLanguageOf } from './consumer-language.ts';
export type { ConsumerLanguage } from './consumer-language.ts';
