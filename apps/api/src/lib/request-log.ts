import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The requests' log lines: one line a request at info, written when it ends, that says what was
 * asked (the request as `requestForLog` shows it, the URL redacted), the status and the time, with
 * the request id and tenant of every line (app.ts). Fastify's own controller writes two, an
 * `incoming request` line without the outcome and a `request completed` line without the URL:
 * twice the volume, and a pair to join by request id to read one request. Here the start is a
 * debug line (a request that never ended is still found at that level).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  /**
   * Fastify's basic 404 (where none of the portal's not-found handlers answers) would write
   * `Route GET:<url> not found` with the URL as sent, query string and all (a link's token): the
   * request's one line says 404 with the URL redacted instead.
   */
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
