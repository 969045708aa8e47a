import {
  ErrorCode,
  fieldErrorCodes,
  FieldError,
  type TErrorBody,
  type TValidationErrorBody,
} from '@portal/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, FieldValidationError } from '../../lib/app-error.ts';

const keywordCodes: Record<string, string> = {
  invalid_type: FieldError.invalidType,
  too_small: FieldError.tooSmall,
  too_big: FieldError.tooBig,
  invalid_format: FieldError.invalidFormat,
  unrecognized_keys: FieldError.unknownField,
  invalid_value: FieldError.invalidValue,
};

/** Field errors keyed by dotted path (`email`, `lines.0.amount`); the body itself is `body`. */
export function toFieldErrors(
  issues: readonly { instancePath: string; keyword: string; message?: string }[],
  context = 'body',
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.instancePath.split('/').filter(Boolean).join('.') || context;
    const code =
      issue.message && fieldErrorCodes.has(issue.message)
        ? issue.message
        : (keywordCodes[issue.keyword] ?? FieldError.invalidValue);
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}

/**
 * Errors of the database driver that mean "not reachable now", answered as 503: connection codes,
 * PostgreSQL's shutdown and too-many-connections states, and pg's own messages for a connection
 * lost mid-transaction (a later statement on it: "is not queryable").
 */
function isUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') {
    const message = (error as { message?: unknown }).message;
    return (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|is not queryable/i.test(
        message,
      )
    );
  }
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      '57P01',
      '57P02',
      '57P03',
      '53300',
    ].includes(code) || code.startsWith('08')
  );
}

/**
 * PostgreSQL's refusals of a value it was given (class 22, data exception): a NUL or a character
 * the encoding lacks (22021, 22P05), a number out of its column's range (22003), a string longer
 * than its column (22001), text that does not cast (22P02), a date out of range (22007, 22008).
 * The contract and the input guard refuse all of these before the database; should one slip
 * through, the request is still at fault: a 400, not a 500 (and a warning in the log).
 */
const rejectedValueCodes = new Set(['22021', '22P05', '22003', '22001', '22P02', '22007', '22008']);

function isRejectedValue(error: unknown): boolean {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && rejectedValueCodes.has(code);
}

/** Two transactions that could not both go on (deadlock, serialization): trying again works. */
const isContention = (error: unknown): boolean => {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
};

/**
 * A unique index refused a row the checks let through: another request took the value first, or
 * two values the database compares as one (PostgreSQL's lower() of `İ` is `i`, JavaScript's is not).
 * The request conflicts with what is stored: a 409, not a 500.
 */
const isUniqueViolation = (error: unknown): boolean =>
  !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23505';

const simple = (reply: FastifyReply, status: number, code: TErrorBody['code'], message: string) =>
  reply.status(status).send({ message, code } satisfies TErrorBody);

/**
 * The one error handler: 422 `{message, code, errors}` for validation, `{message, code}` otherwise.
 * Nothing internal (stack, SQL, driver message, ids) ever reaches the client: 5xx are logged.
 */
export function sendError(error: unknown, reply: FastifyReply, log: FastifyInstance['log']) {
  if (error instanceof AppError) {
    void reply.headers(error.headers);
    return simple(reply, error.statusCode, error.code, error.message);
  }
  if (error instanceof FieldValidationError) {
    return reply.status(422).send({
      message: 'Validation failed',
      code: ErrorCode.validationFailed,
      errors: error.errors,
    } satisfies TValidationErrorBody);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    return reply.status(422).send({
      message: 'Validation failed',
      code: ErrorCode.validationFailed,
      errors: toFieldErrors(error.validation, context),
    } satisfies TValidationErrorBody);
  }
  if (isUnavailable(error)) {
    log.error({ err: error }, 'database unavailable');
    void reply.header('retry-after', '5');
    return simple(reply, 503, ErrorCode.unavailable, 'Service temporarily unavailable');
  }
  if (isContention(error)) {
    log.warn({ err: error }, 'transaction contention: answered 503, to be retried');
    void reply.header('retry-after', '1');
    return simple(reply, 503, ErrorCode.unavailable, 'Service temporarily unavailable');
  }
  if (isUniqueViolation(error)) {
    log.warn({ err: error }, 'a unique index refused a value the checks let through');
    return simple(reply, 409, ErrorCode.conflict, 'Conflicts with stored data');
  }
  if (isRejectedValue(error)) {
    log.warn({ err: error }, 'the database refused a value the input checks let through');
    return simple(reply, 400, ErrorCode.badRequest, 'Bad request');
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) return simple(reply, 429, ErrorCode.rateLimited, 'Too many requests');
  if (status === 413) return simple(reply, 413, ErrorCode.payloadTooLarge, 'Payload too large');
  if (status === 415)
    return simple(reply, 415, ErrorCode.unsupportedMediaType, 'Unsupported media type');
  if (status === 404) return simple(reply, 404, ErrorCode.notFound, 'Not found');
  if (status >= 400 && status < 500) {
    // Malformed JSON, a bad content length, an empty JSON body...: the request is at fault.
    return simple(reply, 400, ErrorCode.badRequest, 'Bad request');
  }
  log.error({ err: error }, 'unhandled error');
  return simple(reply, 500, ErrorCode.internal, 'Internal error');
}

export default fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => sendError(error, reply, request.log));
  },
  { name: 'error-handler' },
);
