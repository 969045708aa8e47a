import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import { demoCreditor, renderScreen, sampleAccount, signIn, stubApi } from '../testing/fixtures';
import { SignMandateScreen } from './sign-mandate-screen';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

const methods = { json: { methods: [sampleAccount] } };
const withCreditor = { creditor: demoCreditor, mandates: [] };

describe('sign the SEPA mandate of a saved bank account (issue 23, item 6)', () => {
  it('shows the saved IBAN and holder, and signs only with the explicit acceptance', async () => {
    const calls = stubApi(
      (call) =>
        call.method === 'GET'
          ? methods
          : call.path === '/payment-methods/pm-account/sepa-mandate'
            ? { status: 201, json: { method: sampleAccount } }
            : undefined,
      withCreditor,
    );
    await renderScreen(<SignMandateScreen id="pm-account" />, '/firmar-mandato?id=pm-account');
    await screen.findByRole('heading', { level: 1, name: es.signMandate.title });
    // The mandate is for the account as saved: no IBAN to type again.
    expect(await screen.findByText(demoCreditor.identifier)).toBeTruthy();
    expect(screen.getAllByText(sampleAccount.iban ?? '-').length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('IBAN', { selector: 'input' })).toBeNull();

    const submit = screen.getByRole('button', { name: es.signMandate.submit });
    await userEvent.click(submit);
    expect(await screen.findByText(es.signMandate.required)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(submit);
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: '/payment-methods/pm-account/sepa-mandate',
          body: { mandate_accepted: true, mandate_language: 'es' },
        },
      ]),
    );
  });

  it('says the account already has an active mandate (409 mandate_active)', async () => {
    stubApi(
      (call) =>
        call.method === 'GET'
          ? methods
          : { status: 409, json: { code: 'mandate_active', message: 'x' } },
      withCreditor,
    );
    await renderScreen(<SignMandateScreen id="pm-account" />, '/firmar-mandato?id=pm-account');
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: es.signMandate.submit }));
    expect(await screen.findByText(es.signMandate.alreadyActive)).toBeTruthy();
    expect(screen.queryByRole('button', { name: es.signMandate.submit })).toBeNull();
  });

  /** Ticks the acceptance and signs, the server refusing with a 422 of `errors`. */
  async function signRefused(errors: Record<string, string[]>, listed = methods) {
    stubApi(
      (call) =>
        call.method === 'GET'
          ? listed
          : { status: 422, json: { code: 'validation_failed', message: 'x', errors } },
      withCreditor,
    );
    await renderScreen(<SignMandateScreen id="pm-account" />, '/firmar-mandato?id=pm-account');
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: es.signMandate.submit }));
  }

  /*
   * An account saved before the server's checks: the API refuses a mandate for an IBAN outside
   * the SEPA area with 422 {errors: {iban: ['iban_not_sepa']}}. The customer, who ticked the box,
   * is told why, not "you must accept" (review of session 37).
   */
  it('says the account is outside SEPA, not that the ticked acceptance is missing', async () => {
    const brazilian = { ...sampleAccount, iban: 'BR18 0036 0305 0000 1000 9795 493C 1' };
    await signRefused({ iban: ['iban_not_sepa'] }, { json: { methods: [brazilian] } });

    await waitFor(() => expect(screen.queryByText(es.validation.ibanNotSepa)).not.toBeNull());
    // The box is ticked: "you must accept" is not true.
    expect(screen.queryByText(es.signMandate.required)).toBeNull();
  });

  it('says the saved holder has characters the mandate cannot carry (422 on holder)', async () => {
    await signRefused({ holder: ['invalid_characters'] });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(es.fields.holder);
    expect(alert.textContent).toContain(es.validation.invalidCharacters);
    expect(screen.queryByText(es.signMandate.required)).toBeNull();
    expect(screen.queryByText(es.signMandate.error)).toBeNull();
  });

  it('asks for the acceptance only when the server says it is missing (422 mandate_accepted)', async () => {
    await signRefused({ mandate_accepted: ['mandate_required'] });

    expect(await screen.findByText(es.signMandate.required)).toBeTruthy();
    expect(screen.queryByText(es.signMandate.error)).toBeNull();
  });

  it('shows the generic notice for a 422 on no field it knows', async () => {
    await signRefused({});

    expect(await screen.findByText(es.signMandate.error)).toBeTruthy();
    expect(screen.queryByText(es.signMandate.required)).toBeNull();
  });

  it('is the not-found screen for an account the customer does not have', async () => {
    stubApi((call) => (call.method === 'GET' ? methods : undefined), withCreditor);
    await renderScreen(<SignMandateScreen id="pm-other" />, '/firmar-mandato?id=pm-other');
    expect(await screen.findByText(es.notFound.title)).toBeTruthy();
  });
});
