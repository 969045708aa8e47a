import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_TEST_MERCHANT, SIGNATURE_VERSIONS, readNotification } from '@portal/redsys';
import type { SignatureVersion } from '@portal/redsys';
import { buildSimulator } from './app.ts';
import type { SimulatorOptions } from './app.ts';
import { startNotificationReceiver } from './testing/notification-receiver.ts';
import {
  URL_KO,
  URL_OK,
  formAction,
  formBody,
  paymentParams,
  present,
  signedForm,
} from './testing/payment-form.ts';

const AUTHORISED = '4548812049400004';
const DECLINED = '5576440022788500';
const CHALLENGE = '4548814479727229';
const KEY = PUBLIC_TEST_MERCHANT.secretKey;

let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;
let app: FastifyInstance;
let logs: string;

async function start(statuses: number[] = [], options: SimulatorOptions = {}) {
  receiver = await startNotificationReceiver(statuses);
  logs = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs += chunk.toString();
      callback();
    },
  });
  app = buildSimulator({
    inspect: true,
    notificationRetryDelayMs: 20,
    logger: { level: 'trace', stream },
    ...options,
  });
}

afterEach(async () => {
  await app?.close();
  await receiver?.close();
});

function post(url: string, fields: Readonly<Record<string, string>>) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody(fields),
  });
}

/** Posts the signed form and then the card page; returns the final response. */
async function payWithCard(
  params: Record<string, string>,
  card: string,
  version: SignatureVersion = 'HMAC_SHA256_V1',
) {
  const page = await post('/sis/realizarPago', signedForm(params, version));
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('name="card_number"');
  return post(formAction(page.body), {
    card_number: card,
    expiry: '12/34',
    cvc: '123',
    action: 'pay',
  });
}

function onlyNotification(version: SignatureVersion = 'HMAC_SHA256_V1') {
  expect(receiver.received).toHaveLength(1);
  const notification = present(receiver.received[0], 'notification');
  expect(notification.contentType).toBe('application/x-www-form-urlencoded');
  const read = readNotification(notification.body, KEY, [version]);
  if (!read.ok) throw new Error(`notification rejected: ${read.reason}`);
  expect(notification.body.Ds_SignatureVersion).toBe(version);
  return { read, notification };
}

describe('requests Redsys would reject', () => {
  beforeEach(() => start());

  it('a bad signature shows SIS0042 and notifies no one', async () => {
    const form = signedForm(paymentParams(receiver.url));
    const first = form.Ds_Signature.startsWith('A') ? 'B' : 'A';
    const tampered = { ...form, Ds_Signature: `${first}${form.Ds_Signature.slice(1)}` };
    const wrongKey = signedForm(
      paymentParams(receiver.url),
      'HMAC_SHA256_V1',
      'Mk9m98IfEblmPfrpsawt7BmxObt98Jev',
    );
    for (const fields of [tampered, wrongKey]) {
      const response = await post('/sis/realizarPago', fields);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('SIS0042');
      expect(response.body).not.toContain('name="card_number"');
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('tampered parameters (a changed amount) show SIS0042', async () => {
    const form = signedForm(paymentParams(receiver.url));
    const params = JSON.parse(Buffer.from(form.Ds_MerchantParameters, 'base64').toString());
    params.Ds_Merchant_Amount = '1';
    const response = await post('/sis/realizarPago', {
      ...form,
      Ds_MerchantParameters: Buffer.from(JSON.stringify(params)).toString('base64'),
    });
    expect(response.body).toContain('SIS0042');
  });

  it.each([
    ['unknown merchant', { Ds_Merchant_MerchantCode: '123456789' }, 'SIS0026'],
    ['unknown terminal', { Ds_Merchant_Terminal: '2' }, 'SIS0026'],
    ['bad amount', { Ds_Merchant_Amount: '12.50' }, 'SIS0019'],
    ['zero amount', { Ds_Merchant_Amount: '0' }, 'SIS0019'],
    ['bad order', { Ds_Merchant_Order: 'ABCD1234' }, 'SIS0014'],
    ['other currency', { Ds_Merchant_Currency: '840' }, 'SIS0027'],
    ['a refund', { Ds_Merchant_TransactionType: '3' }, 'SIS0023'],
  ])('%s shows %s', async (_name, overrides, code) => {
    const response = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, overrides)),
    );
    expect(response.body).toContain(code);
    expect(response.body).not.toContain('name="card_number"');
    expect(receiver.received).toHaveLength(0);
  });

  it('missing fields show their SIS code', async () => {
    const form = signedForm(paymentParams(receiver.url));
    const cases: [Record<string, string>, string][] = [
      [
        { Ds_MerchantParameters: form.Ds_MerchantParameters, Ds_Signature: form.Ds_Signature },
        'SIS0429',
      ],
      [{ ...form, Ds_SignatureVersion: 'HMAC_SHA1_V0' }, 'SIS0429'],
      [{ Ds_SignatureVersion: 'HMAC_SHA256_V1', Ds_Signature: form.Ds_Signature }, 'SIS0430'],
      [{ ...form, Ds_MerchantParameters: 'not*base64' }, 'SIS0430'],
      [
        {
          Ds_SignatureVersion: 'HMAC_SHA256_V1',
          Ds_MerchantParameters: form.Ds_MerchantParameters,
        },
        'SIS0042',
      ],
      [{}, 'SIS0429'],
    ];
    for (const [fields, code] of cases) {
      const response = await post('/sis/realizarPago', fields);
      expect(response.body, code).toContain(code);
    }
    const { Ds_Merchant_Order: _order, ...withoutOrder } = paymentParams(receiver.url);
    const noOrder = await post('/sis/realizarPago', {
      Ds_SignatureVersion: 'HMAC_SHA256_V1',
      Ds_MerchantParameters: Buffer.from(JSON.stringify(withoutOrder)).toString('base64'),
      Ds_Signature: form.Ds_Signature,
    });
    expect(noOrder.body).toContain('SIS0074');
    expect(receiver.received).toHaveLength(0);
  });

  it('a version the merchant does not use shows SIS0429', async () => {
    await app.close();
    await receiver.close();
    await start([], {
      merchants: [{ ...PUBLIC_TEST_MERCHANT, allowedVersions: ['HMAC_SHA512_V2'] }],
    });
    const response = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url), 'HMAC_SHA256_V1'),
    );
    expect(response.body).toContain('SIS0429');
  });
});

describe.each(SIGNATURE_VERSIONS)('a payment signed with %s', (version) => {
  beforeEach(() => start());

  it('authorised card: one signed notification (0000), then the browser goes to UrlOK', async () => {
    const params = paymentParams(receiver.url, { Ds_Merchant_MerchantData: 'payment=42' });
    const response = await payWithCard(params, '4548 8120 4940 0004', version);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(URL_OK);

    const { read, notification } = onlyNotification(version);
    expect(read.params).toMatchObject({
      Ds_Amount: '12345',
      Ds_Currency: '978',
      Ds_Order: params.Ds_Merchant_Order,
      Ds_MerchantCode: '999008881',
      Ds_Terminal: '001',
      Ds_Response: '0000',
      Ds_MerchantData: 'payment=42',
      Ds_TransactionType: '0',
      Ds_SecurePayment: '1',
      Ds_Card_Country: '724',
      Ds_ConsumerLanguage: '1',
      Ds_Card_Brand: '1',
    });
    expect(read.params.Ds_AuthorisationCode).toMatch(/^\d{6}$/);
    expect(read.params.Ds_Date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(read.params.Ds_Hour).toMatch(/^\d{2}:\d{2}$/);
    // As Redsys: dates URL-encoded inside the JSON, signature in base64url.
    const rawParams = Buffer.from(
      present(notification.body.Ds_MerchantParameters),
      'base64',
    ).toString();
    expect(rawParams).toMatch(/"Ds_Date":"\d{2}%2F\d{2}%2F\d{4}"/);
    expect(notification.body.Ds_Signature).not.toMatch(/[+/]/);
    // No card data unless a reference was asked for; never the full number anywhere.
    expect(read.params.Ds_Card_Number).toBeUndefined();
    expect(notification.raw).not.toContain(AUTHORISED);
    expect(rawParams).not.toContain(AUTHORISED);
    expect(logs).not.toContain(AUTHORISED);
    expect(logs).not.toContain('4548 8120');
  });

  it('declined card: 0190 and UrlKO', async () => {
    const response = await payWithCard(paymentParams(receiver.url), DECLINED, version);
    expect(response.headers.location).toBe(URL_KO);
    const { read } = onlyNotification(version);
    expect(read.params.Ds_Response).toBe('0190');
    expect(read.params.Ds_AuthorisationCode).toBe('');
    expect(read.params.Ds_Card_Brand).toBe('2');
  });
});

describe('the 3DS challenge card', () => {
  beforeEach(() => start());

  async function reachChallenge() {
    const params = paymentParams(receiver.url);
    const challenge = await payWithCard(params, CHALLENGE);
    expect(challenge.statusCode).toBe(200);
    expect(challenge.body).toContain('name="code"');
    expect(challenge.body).toContain('<label for="code">');
    expect(receiver.received).toHaveLength(0);
    return { params, action: formAction(challenge.body) };
  }

  it('authorises with 123456', async () => {
    const { action } = await reachChallenge();
    const response = await post(action, { code: '123456', action: 'pay' });
    expect(response.headers.location).toBe(URL_OK);
    expect(onlyNotification().read.params).toMatchObject({
      Ds_Response: '0000',
      Ds_SecurePayment: '1',
    });
  });

  it('fails with 0184 on any other code, and the page cannot be replayed', async () => {
    const { action } = await reachChallenge();
    const response = await post(action, { code: '654321', action: 'pay' });
    expect(response.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('0184');
    const replay = await post(action, { code: '123456', action: 'pay' });
    expect(replay.body).toContain('SIS0081');
    expect(receiver.received).toHaveLength(1);
  });

  it('can be cancelled (9915)', async () => {
    const { action } = await reachChallenge();
    const response = await post(action, { action: 'cancel' });
    expect(response.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('9915');
  });
});

describe('the card page', () => {
  beforeEach(() => start());

  it('cancel: 9915, UrlKO', async () => {
    const page = await post('/sis/realizarPago', signedForm(paymentParams(receiver.url)));
    const response = await post(formAction(page.body), { action: 'cancel' });
    expect(response.headers.location).toBe(URL_KO);
    const { read } = onlyNotification();
    expect(read.params.Ds_Response).toBe('9915');
    expect(read.params.Ds_Card_Brand).toBeUndefined();
  });

  it('stays with an error on a Luhn-invalid number, bad expiry or CVC, then pays', async () => {
    const page = await post('/sis/realizarPago', signedForm(paymentParams(receiver.url)));
    const action = formAction(page.body);
    const wrong = await post(action, {
      card_number: '4548812049400005',
      expiry: '13/30',
      cvc: '12',
      action: 'pay',
    });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toContain('role="alert"');
    expect(wrong.body).toContain('El número de tarjeta no es válido.');
    expect(wrong.body).toContain('aria-invalid="true" aria-describedby="card-number-error"');
    expect(wrong.body).toContain('aria-describedby="expiry-error"');
    expect(wrong.body).toContain('aria-describedby="cvc-error"');
    expect(wrong.body).not.toContain('4548812049400005');
    expect(wrong.body).toMatch(/id="card-number"[^>]* autofocus/);
    expect(wrong.body.match(/autofocus/g)).toHaveLength(1);
    expect(formAction(wrong.body)).toBe(action);
    const expired = await post(action, {
      card_number: AUTHORISED,
      expiry: '01/20',
      cvc: '123',
      action: 'pay',
    });
    expect(expired.body).toContain('La fecha de caducidad no es válida');
    expect(receiver.received).toHaveLength(0);

    const paid = await post(action, {
      card_number: AUTHORISED,
      expiry: '1234',
      cvc: '123',
      action: 'pay',
    });
    expect(paid.headers.location).toBe(URL_OK);
    expect(onlyNotification().read.params.Ds_Response).toBe('0000');
  });

  it('authorises any other Luhn-valid number', async () => {
    const response = await payWithCard(paymentParams(receiver.url), '5555555555554444');
    expect(response.headers.location).toBe(URL_OK);
    expect(onlyNotification().read.params).toMatchObject({
      Ds_Response: '0000',
      Ds_Card_Brand: '2',
    });
  });

  it("shows the club's whole name as it receives it, however long", async () => {
    const name = 'Club Deportivo Polideportivo Municipal de Valdemoro';
    const page = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_MerchantName: name })),
    );
    expect(page.body).toContain(`<dd>${name}</dd>`);
  });

  it('shows the amount in es-ES, the merchant, the order, labelled fields and the test cards', async () => {
    const params = paymentParams(receiver.url, {
      Ds_Merchant_Amount: '1234567',
      Ds_Merchant_MerchantName: 'Pérez & <Hijos>',
    });
    const page = await post('/sis/realizarPago', signedForm(params));
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toMatch(/12\.345,67\s€/);
    expect(page.body).toContain('Pérez &amp; &lt;Hijos&gt;');
    expect(page.body).not.toContain('<Hijos>');
    expect(page.body).toContain(params.Ds_Merchant_Order);
    for (const id of ['card-number', 'expiry', 'cvc']) {
      expect(page.body).toContain(`<label for="${id}">`);
      expect(page.body).toContain(`id="${id}"`);
    }
    for (const card of [AUTHORISED, DECLINED, CHALLENGE]) expect(page.body).toContain(card);
    expect(page.body).toContain('>Pagar<');
    expect(page.body).toContain('>Cancelar<');
    // The card number takes the focus: the customer came to type it (review #28).
    expect(page.body).toMatch(/id="card-number"[^>]* autofocus/);
    expect(page.body.match(/autofocus/g)).toHaveLength(1);
    expect(page.body).not.toMatch(/<(script|link|img)\b/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('speaks English for Ds_Merchant_ConsumerLanguage 002, Catalan for 003', async () => {
    const en = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_ConsumerLanguage: '002' })),
    );
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('>Pay<');
    expect(en.body).toContain('Card number');
    const ca = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_ConsumerLanguage: '3' })),
    );
    expect(ca.body).toContain('<html lang="ca">');
  });

  it.each([
    ['013', 'eu', '>Ordaindu<', 'Txartelaren zenbakia'],
    ['010', 'ca', '>Pagar<', 'Número de targeta'],
    ['004', 'es', '>Pagar<', 'Número de tarjeta'],
    ['', 'es', '>Pagar<', 'Número de tarjeta'],
  ])(
    'the card page for Ds_Merchant_ConsumerLanguage %j is in %s',
    async (code, lang, pay, label) => {
      const page = await post(
        '/sis/realizarPago',
        signedForm(paymentParams(receiver.url, { Ds_Merchant_ConsumerLanguage: code })),
      );
      expect(page.body).toContain(`<html lang="${lang}">`);
      expect(page.body).toContain(pay);
      expect(page.body).toContain(label);
    },
  );

  it('words its error page in Basque for 013 (the code stays as Redsys gives it)', async () => {
    const page = await post(
      '/sis/realizarPago',
      signedForm(
        paymentParams(receiver.url, {
          Ds_Merchant_ConsumerLanguage: '013',
          Ds_Merchant_Amount: '',
        }),
      ),
    );
    expect(page.body).toContain('<html lang="eu">');
    expect(page.body).toContain('Ezin da eragiketa egin');
    expect(page.body).toContain('SIS0018');
  });

  it('a completed order cannot be posted again (SIS0051)', async () => {
    const params = paymentParams(receiver.url);
    await payWithCard(params, AUTHORISED);
    const again = await post('/sis/realizarPago', signedForm(params));
    expect(again.body).toContain('SIS0051');
    expect(receiver.received).toHaveLength(1);
  });

  it('without UrlOK it shows its own result page', async () => {
    const params = paymentParams(receiver.url, { Ds_Merchant_UrlOK: '' });
    const response = await payWithCard(params, AUTHORISED);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Operación autorizada');
  });
});

describe('terminals compare numerically', () => {
  beforeEach(() => start());

  it.each(['1', '001'])(
    'a request for terminal "%s" reaches terminal 1 and comes back as "001"',
    async (terminal) => {
      const response = await payWithCard(
        paymentParams(receiver.url, { Ds_Merchant_Terminal: terminal }),
        AUTHORISED,
      );
      expect(response.headers.location).toBe(URL_OK);
      expect(onlyNotification().read.params.Ds_Terminal).toBe('001');
    },
  );
});

describe('saved cards (Ds_Merchant_Identifier)', () => {
  beforeEach(() => start());

  it('REQUIRED returns a reference; paying with it needs no card form', async () => {
    const first = await payWithCard(
      paymentParams(receiver.url, { Ds_Merchant_Identifier: 'REQUIRED' }),
      AUTHORISED,
    );
    expect(first.headers.location).toBe(URL_OK);
    const { read } = onlyNotification();
    const reference = present(read.params.Ds_Merchant_Identifier);
    expect(reference).toMatch(/^[0-9a-f]{40}$/);
    expect(read.params.Ds_ExpiryDate).toBe('3412');
    expect(read.params.Ds_Card_Number).toBe('454881******0004');

    const page = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_Identifier: reference })),
    );
    expect(page.body).not.toContain('name="card_number"');
    expect(page.body).toContain('****0004');
    expect(page.body).toContain('>Pagar<');
    const paid = await post(formAction(page.body), { action: 'pay' });
    expect(paid.headers.location).toBe(URL_OK);
    expect(receiver.received).toHaveLength(2);
    const second = readNotification(present(receiver.received[1]).body, KEY, ['HMAC_SHA256_V1']);
    expect(second.ok && second.params.Ds_Response).toBe('0000');
    expect(second.ok && second.params.Ds_Merchant_Identifier).toBeUndefined();
  });

  it('a declined card is not saved', async () => {
    await payWithCard(
      paymentParams(receiver.url, { Ds_Merchant_Identifier: 'REQUIRED' }),
      DECLINED,
    );
    expect(onlyNotification().read.params.Ds_Merchant_Identifier).toBeUndefined();
  });

  it('Ds_Merchant_DirectPayment=true charges a known reference without any page', async () => {
    await payWithCard(
      paymentParams(receiver.url, { Ds_Merchant_Identifier: 'REQUIRED' }),
      AUTHORISED,
    );
    const reference = present(onlyNotification().read.params.Ds_Merchant_Identifier);
    const direct = await post(
      '/sis/realizarPago',
      signedForm(
        paymentParams(receiver.url, {
          Ds_Merchant_Identifier: reference,
          Ds_Merchant_DirectPayment: 'true',
        }),
      ),
    );
    expect(direct.headers.location).toBe(URL_OK);
    expect(receiver.received).toHaveLength(2);
  });

  it('an unknown reference is declined (0180) at once', async () => {
    const response = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_Identifier: 'f'.repeat(40) })),
    );
    expect(response.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('0180');
  });

  it('a reference of another merchant is unknown', async () => {
    await app.close();
    await receiver.close();
    const other = { ...PUBLIC_TEST_MERCHANT, merchantCode: '999008882' };
    await start([], { merchants: [PUBLIC_TEST_MERCHANT, other] });
    await payWithCard(
      paymentParams(receiver.url, {
        Ds_Merchant_MerchantCode: '999008882',
        Ds_Merchant_Identifier: 'REQUIRED',
      }),
      AUTHORISED,
    );
    const reference = present(onlyNotification().read.params.Ds_Merchant_Identifier);
    const response = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_Identifier: reference })),
    );
    expect(response.headers.location).toBe(URL_KO);
  });

  it('the demo prefix stands for the authorised test card when configured', async () => {
    await app.close();
    await receiver.close();
    await start([], { demoReferencePrefix: 'demo' });
    const page = await post(
      '/sis/realizarPago',
      signedForm(paymentParams(receiver.url, { Ds_Merchant_Identifier: `demo${'a'.repeat(36)}` })),
    );
    expect(page.body).toContain('****0004');
    const paid = await post(formAction(page.body), { action: 'pay' });
    expect(paid.headers.location).toBe(URL_OK);
  });
});

describe('the testing toggle (simulate=decline)', () => {
  beforeEach(() => start());

  it('in the signed Ds_Merchant_MerchantData declines even the authorised card', async () => {
    const params = paymentParams(receiver.url, {
      Ds_Merchant_MerchantData: 'id=7;simulate=decline',
    });
    const page = await post('/sis/realizarPago', signedForm(params));
    expect(page.body).toContain('este pago se denegará');
    const response = await post(formAction(page.body), {
      card_number: AUTHORISED,
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(response.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params).toMatchObject({
      Ds_Response: '0190',
      Ds_MerchantData: 'id=7;simulate=decline',
    });
  });

  it('as an extra field of the form POST', async () => {
    const form = signedForm(paymentParams(receiver.url));
    const page = await post('/sis/realizarPago', {
      ...form,
      Ds_Merchant_MerchantData: 'simulate=decline',
    });
    const response = await post(formAction(page.body), {
      card_number: CHALLENGE,
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(response.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('0190');
  });
});

describe('notification delivery', () => {
  it('is retried when the merchant first answers 500, and every attempt is recorded', async () => {
    await start([500]);
    const params = paymentParams(receiver.url);
    const response = await payWithCard(params, AUTHORISED);
    expect(response.headers.location).toBe(URL_OK);
    expect(receiver.received).toHaveLength(2);
    expect(present(receiver.received[0]).raw).toBe(present(receiver.received[1]).raw);

    const listed = await app.inject({
      method: 'GET',
      url: `/__sim/notifications?order=${params.Ds_Merchant_Order}`,
    });
    const [record] = listed.json().notifications;
    expect(record).toMatchObject({
      order: params.Ds_Merchant_Order,
      dsResponse: '0000',
      delivered: true,
    });
    expect(record.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([
      500, 200,
    ]);
  });

  it('gives up after 3 attempts on an unreachable merchant and still sends the browser back', async () => {
    await start();
    await receiver.close();
    const response = await payWithCard(paymentParams(receiver.url), AUTHORISED);
    expect(response.headers.location).toBe(URL_OK);
    const listed = await app.inject({ method: 'GET', url: '/__sim/notifications' });
    const [record] = listed.json().notifications;
    expect(record.delivered).toBe(false);
    expect(record.attempts).toHaveLength(3);
    expect(record.attempts[0].error).toBeTruthy();
  });

  it('can be sent again, identical, through /__sim/', async () => {
    await start();
    const params = paymentParams(receiver.url);
    await payWithCard(params, AUTHORISED);
    const resent = await app.inject({
      method: 'POST',
      url: `/__sim/notifications/${params.Ds_Merchant_Order}/resend`,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ resend: true, delivered: true });
    expect(receiver.received).toHaveLength(2);
    expect(present(receiver.received[1]).raw).toBe(present(receiver.received[0]).raw);
    const missing = await app.inject({
      method: 'POST',
      url: '/__sim/notifications/0000nope/resend',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('the /__sim/ endpoints exist only with inspect', async () => {
    await start([], { inspect: false });
    const response = await app.inject({ method: 'GET', url: '/__sim/notifications' });
    expect(response.statusCode).toBe(404);
  });
});

describe('sessions', () => {
  it('a double-submitted card page pays once', async () => {
    await start();
    const page = await post('/sis/realizarPago', signedForm(paymentParams(receiver.url)));
    const action = formAction(page.body);
    const card = { card_number: AUTHORISED, expiry: '12/34', cvc: '123', action: 'pay' };
    const [first, second] = await Promise.all([post(action, card), post(action, card)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 302]);
    expect(receiver.received).toHaveLength(1);
  });

  it('a card page left open past its lifetime is gone (SIS0081)', async () => {
    let now = new Date('2026-11-21T10:00:00Z');
    await start([], { now: () => now, sessionTtlMs: 60_000 });
    const page = await post('/sis/realizarPago', signedForm(paymentParams(receiver.url)));
    now = new Date('2026-11-21T10:01:01Z');
    const late = await post(formAction(page.body), {
      card_number: AUTHORISED,
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(late.body).toContain('SIS0081');
    expect(receiver.received).toHaveLength(0);
  });

  it('links its pages under publicUrl, and dates the notification on Madrid time', async () => {
    await start([], {
      publicUrl: 'https://sim.example.test/',
      now: () => new Date('2026-07-31T22:30:00Z'),
    });
    const page = await post('/sis/realizarPago', signedForm(paymentParams(receiver.url)));
    const action = formAction(page.body);
    expect(action).toMatch(
      /^https:\/\/sim\.example\.test\/sis\/operaciones\/[0-9a-f]{32}\/tarjeta$/,
    );
    await post(new URL(action).pathname, {
      card_number: AUTHORISED,
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(onlyNotification().read.params).toMatchObject({
      Ds_Date: '01/08/2026',
      Ds_Hour: '00:30',
    });
  });
});
