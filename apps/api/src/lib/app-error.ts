import { ErrorCode, type TErrorCode } from '@portal/contract';

/** An error the API answers on purpose: its status and code reach the client, nothing else. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: TErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'Resource'): AppError =>
  new AppError(404, ErrorCode.notFound, `${what} not found`);

/** A 422 for one or more fields, the shape spec §8 reads (`errors.<field>: [codes]`). */
export class FieldValidationError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('Validation failed');
    this.name = 'FieldValidationError';
  }
}
