import type { FastifyInstance, FastifyReply } from 'fastify';
import { SIS_ERRORS } from '../codes.ts';
import type { Gateway, PaymentSession, Screen } from '../gateway.ts';
import {
  renderBizumAppPage,
  renderBizumPage,
  renderCardPage,
  renderChallengePage,
  renderErrorPage,
  renderResultPage,
  renderSavedCardPage,
} from '../pages/payment-pages.ts';
import type { PaymentSummary } from '../pages/payment-pages.ts';

/** The browser-facing paths, Spanish like Redsys' own (the form is posted to /sis/realizarPago). */
export const PAYMENT_PATH = '/sis/realizarPago';
const stepPath = (
  id: string,
  step: 'tarjeta' | 'tarjeta-guardada' | 'autenticacion' | 'bizum' | 'bizum-confirmacion',
) => `/sis/operaciones/${id}/${step}`;

type Body = Record<string, unknown>;
type StepRequest = { Params: { id: string }; Body: Body };

function summaryOf(session: PaymentSession): PaymentSummary {
  return {
    language: session.language,
    amountCents: session.amount,
    currency: session.currency,
    merchantName: session.merchantName,
    order: session.order,
  };
}

function sendHtml(reply: FastifyReply, html: string) {
  return reply.type('text/html; charset=utf-8').send(html);
}

export function registerPaymentRoutes(app: FastifyInstance, gateway: Gateway, publicUrl: string) {
  function show(reply: FastifyReply, screen: Screen) {
    switch (screen.kind) {
      case 'card':
        return sendHtml(
          reply,
          renderCardPage({
            summary: summaryOf(screen.session),
            action: publicUrl + stepPath(screen.session.id, 'tarjeta'),
            errors: screen.errors,
            forcedDecline: screen.session.forcedDecline,
          }),
        );
      case 'saved-card': {
        const card = screen.session.card;
        return sendHtml(
          reply,
          renderSavedCardPage({
            summary: summaryOf(screen.session),
            action: publicUrl + stepPath(screen.session.id, 'tarjeta-guardada'),
            lastFour: card?.number.slice(-4) ?? '',
            brand: card?.brand,
            expiry: card?.expiry ?? '',
            forcedDecline: screen.session.forcedDecline,
          }),
        );
      }
      case 'challenge':
        return sendHtml(
          reply,
          renderChallengePage({
            summary: summaryOf(screen.session),
            action: publicUrl + stepPath(screen.session.id, 'autenticacion'),
          }),
        );
      case 'bizum':
        return sendHtml(
          reply,
          renderBizumPage({
            summary: summaryOf(screen.session),
            action: publicUrl + stepPath(screen.session.id, 'bizum'),
            forcedDecline: screen.session.forcedDecline,
            ...(screen.invalid ? { invalid: true } : {}),
            ...(screen.phone ? { phone: screen.phone } : {}),
          }),
        );
      case 'bizum-app':
        return sendHtml(
          reply,
          renderBizumAppPage({
            summary: summaryOf(screen.session),
            action: publicUrl + stepPath(screen.session.id, 'bizum-confirmacion'),
            // As a bank shows it: the last three digits only.
            maskedPhone: `+34 *** *** ${screen.session.phone.slice(-3)}`,
          }),
        );
      case 'sis-error':
        // Redsys answers a bad request with a 200 page showing the SIS code, and notifies no one.
        return sendHtml(
          reply,
          renderErrorPage(screen.language, screen.code, SIS_ERRORS[screen.code]),
        );
      case 'done':
        if (screen.redirectTo) return reply.redirect(screen.redirectTo, 302);
        return sendHtml(
          reply,
          renderResultPage(screen.language, screen.authorised, screen.dsResponse),
        );
    }
  }

  app.post<{ Body: Body }>(PAYMENT_PATH, async (request, reply) =>
    show(reply, await gateway.openPayment(request.body ?? {})),
  );
  app.post<StepRequest>(stepPath(':id', 'tarjeta'), async (request, reply) =>
    show(reply, await gateway.submitCard(request.params.id, request.body ?? {})),
  );
  app.post<StepRequest>(stepPath(':id', 'tarjeta-guardada'), async (request, reply) =>
    show(reply, await gateway.submitSavedCard(request.params.id, request.body ?? {})),
  );
  app.post<StepRequest>(stepPath(':id', 'bizum'), async (request, reply) =>
    show(reply, await gateway.submitBizumPhone(request.params.id, request.body ?? {})),
  );
  app.post<StepRequest>(stepPath(':id', 'bizum-confirmacion'), async (request, reply) =>
    show(reply, await gateway.submitBizumApp(request.params.id, request.body ?? {})),
  );
  app.post<StepRequest>(stepPath(':id', 'autenticacion'), async (request, reply) =>
    show(reply, await gateway.submitChallenge(request.params.id, request.body ?? {})),
  );
}
