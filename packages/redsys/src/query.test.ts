import { createCipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  RedsysError,
  classifyOperation,
  createQueryAnswer,
  createQueryRequest,
  readQueryAnswer,
  readQueryRequest,
  verifyQuerySignature,
} from './index.ts';
import type { QueryOperation } from './index.ts';

// Redsys' public test key for merchant 999008881 (sis-t.redsys.es): public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Lk9m98IfEblmPfrpsawt7BmxObt98Jev';

/**
 * The signature as S1 §3.4.1 words it, written out independently of signature.ts: 3DES-EDE3-CBC
 * (zero IV, order zero-padded to 8 bytes) of the order under the Base64-decoded secret, then
 * HMAC-SHA256 over the `<Version>` text with that key, Base64.
 */
function referenceSignature(secret: string, order: string, version: string): string {
  const padded = Buffer.alloc(Math.ceil(order.length / 8) * 8);
  Buffer.from(order).copy(padded);
  const cipher = createCipheriv('des-ede3-cbc', Buffer.from(secret, 'base64'), Buffer.alloc(8));
  cipher.setAutoPadding(false);
  const key = Buffer.concat([cipher.update(padded), cipher.final()]);
  return createHmac('sha256', key).update(version).digest('base64');
}

describe('createQueryRequest (consultaOperaciones, S1 §3.2.1 and §3.3.1)', () => {
  it('builds the Transaction message of S1 example exactly, signed over its Version element', () => {
    const request = createQueryRequest({
      message: 'Transaction',
      merchantCode: '999008881',
      terminal: '1',
      order: '5799L',
      transactionType: '3',
      secret: KEY,
    });
    const version =
      '<Version Ds_Version="0.0"><Message><Transaction><Ds_MerchantCode>999008881</Ds_MerchantCode>' +
      '<Ds_Terminal>1</Ds_Terminal><Ds_Order>5799L</Ds_Order><Ds_TransactionType>3</Ds_TransactionType>' +
      '</Transaction></Message></Version>';
    const signature = referenceSignature(KEY, '5799L', version);
    expect(request.version).toBe(version);
    expect(request.signature).toBe(signature);
    expect(request.headers).toEqual({
      'content-type': 'text/xml; charset=utf-8',
      soapaction: 'consultaOperaciones',
    });
    expect(request.body).toBe(
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
        'xmlns:web="http://webservices.apl02.redsys.es"><soapenv:Header/><soapenv:Body>' +
        '<web:consultaOperaciones><cadenaXML><![CDATA[<Messages>' +
        version +
        `<Signature>${signature}</Signature><SignatureVersion>HMAC_SHA256_V1</SignatureVersion>` +
        '</Messages>]]></cadenaXML></web:consultaOperaciones></soapenv:Body></soapenv:Envelope>',
    );
    // No whitespace between tags anywhere (S1 recommends none).
    expect(request.body).not.toMatch(/>\s+</);
  });

  it('builds a Monitor message: the order alone, no transaction type', () => {
    const request = createQueryRequest({
      message: 'Monitor',
      merchantCode: '999008881',
      terminal: '1',
      order: '1234abcd',
      transactionType: '0',
      secret: KEY,
    });
    expect(request.version).toBe(
      '<Version Ds_Version="0.0"><Message><Monitor><Ds_MerchantCode>999008881</Ds_MerchantCode>' +
        '<Ds_Terminal>1</Ds_Terminal><Ds_Order>1234abcd</Ds_Order></Monitor></Message></Version>',
    );
    expect(request.signature).toBe(referenceSignature(KEY, '1234abcd', request.version));
  });

  it.each([
    ['an order not starting with 4 digits (XML0015)', { order: 'A234bcde' }],
    ['markup in the order', { order: '1234<a/>' }],
    ['a merchant code with letters', { merchantCode: '99900888X' }],
    ['a 4-digit terminal', { terminal: '1000' }],
    ['a Transaction without a type', { transactionType: undefined }],
    ['a bad secret', { secret: 'short' }],
  ])('refuses %s', (_name, change) => {
    const input = {
      message: 'Transaction' as const,
      merchantCode: '999008881',
      terminal: '1',
      order: '1234abcd',
      transactionType: '0',
      secret: KEY,
      ...change,
    };
    expect(() => createQueryRequest(input)).toThrow(RedsysError);
  });
});

describe('readQueryRequest (the gateway side)', () => {
  it('reads back both message types and their signed Version element', () => {
    for (const message of ['Transaction', 'Monitor'] as const) {
      const request = createQueryRequest({
        message,
        merchantCode: '999008881',
        terminal: '1',
        order: '1234abcd',
        transactionType: '0',
        secret: KEY,
      });
      const read = readQueryRequest(request.body);
      expect(read).toMatchObject({
        ok: true,
        message,
        merchantCode: '999008881',
        terminal: '1',
        order: '1234abcd',
        version: request.version,
        signature: request.signature,
      });
      if (!read.ok) throw new Error('unreachable');
      expect(verifyQuerySignature(KEY, read.order, read.version, read.signature)).toBe(true);
      expect(verifyQuerySignature(OTHER_KEY, read.order, read.version, read.signature)).toBe(false);
      expect(verifyQuerySignature(KEY, '1234abce', read.version, read.signature)).toBe(false);
    }
  });

  it('answers XML0015 for an order without 4 leading digits, XML0000 for junk', () => {
    const request = createQueryRequest({
      message: 'Monitor',
      merchantCode: '999008881',
      terminal: '1',
      order: '1234abcd',
      secret: KEY,
    });
    expect(readQueryRequest(request.body.replaceAll('1234abcd', 'abcd1234'))).toEqual({
      ok: false,
      code: 'XML0015',
    });
    for (const junk of ['', 'not xml', '<a>', '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>']) {
      expect(readQueryRequest(junk)).toEqual({ ok: false, code: 'XML0000' });
    }
  });
});

const payment: QueryOperation = {
  order: '1234abcd',
  transactionType: '0',
  state: 'F',
  response: '0000',
  amountCents: 4250,
  currency: '978',
  authorisationCode: '123456',
  merchantCode: '999008881',
  terminal: '001',
  date: '2026-11-21',
  hour: '10:00',
};
const check = { secret: KEY, order: '1234abcd' };

describe('readQueryAnswer', () => {
  it('reads a fixed answer in the shape Redsys sends (escaped Messages, p259 namespace)', () => {
    const version =
      '<Version Ds_Version="0.0"><Message><Response Ds_Version="0.0"><Ds_MerchantCode>999008881</Ds_MerchantCode>' +
      '<Ds_Terminal>1</Ds_Terminal><Ds_Order>5799L</Ds_Order><Ds_TransactionType>3</Ds_TransactionType>' +
      '<Ds_Date>2020-08-13</Ds_Date><Ds_Hour>12:34</Ds_Hour><Ds_Amount>100</Ds_Amount><Ds_Currency>978</Ds_Currency>' +
      '<Ds_CardNumber>454881******0004</Ds_CardNumber><Ds_CardType>C</Ds_CardType><Ds_SecurePayment>0</Ds_SecurePayment>' +
      '<Ds_State>F</Ds_State><Ds_Response>0900</Ds_Response><Ds_CardCountry>724</Ds_CardCountry></Response></Message></Version>';
    const messages = `<Messages>${version}<Signature>${referenceSignature(KEY, '5799L', version)}</Signature></Messages>`;
    const escaped = messages
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;');
    const soap =
      '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
      'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>' +
      '<p259:consultaOperacionesResponse xmlns:p259="http://webservices.apl02.redsys.es">' +
      `<consultaOperacionesReturn>${escaped}</consultaOperacionesReturn>` +
      '</p259:consultaOperacionesResponse></soapenv:Body></soapenv:Envelope>';
    const answer = readQueryAnswer(soap, { secret: KEY, order: '5799L' });
    expect(answer).toEqual({
      kind: 'ok',
      operations: [
        {
          order: '5799L',
          transactionType: '3',
          state: 'F',
          response: '0900',
          amountCents: 100,
          currency: '978',
          merchantCode: '999008881',
          terminal: '1',
          date: '2020-08-13',
          hour: '12:34',
        },
      ],
    });
    // The same document in CDATA instead of escaped text reads the same.
    const cdata = soap.replace(escaped, `<![CDATA[${messages}]]>`);
    expect(readQueryAnswer(cdata, { secret: KEY, order: '5799L' })).toEqual(answer);
    // An operation without a signature (or with an element where its text goes) is refused.
    for (const unsigned of [
      soap.replace(/&lt;Signature&gt;.*&lt;\/Signature&gt;/, ''),
      soap.replace(
        /&lt;Signature&gt;.*&lt;\/Signature&gt;/,
        '&lt;Signature&gt;&lt;x/&gt;&lt;/Signature&gt;',
      ),
    ]) {
      expect(unsigned).not.toBe(soap);
      expect(readQueryAnswer(unsigned, { secret: KEY, order: '5799L' })).toEqual({
        kind: 'bad_signature',
      });
    }
    // Any change inside the signed element is refused.
    expect(
      readQueryAnswer(soap.replace('&lt;Ds_Amount&gt;100', '&lt;Ds_Amount&gt;900'), {
        secret: KEY,
        order: '5799L',
      }),
    ).toEqual({ kind: 'bad_signature' });
  });

  it('round-trips createQueryAnswer: a payment and its refunds (Monitor), in order', () => {
    const refund = { ...payment, transactionType: '3', response: '0900', amountCents: 1000 };
    const soap = createQueryAnswer({ ...check, operations: [payment, refund] });
    expect(soap).toContain('&lt;Messages&gt;');
    expect(readQueryAnswer(soap, check)).toEqual({ kind: 'ok', operations: [payment, refund] });
  });

  it('reads XML0024 as never received, other codes as errors', () => {
    expect(readQueryAnswer(createQueryAnswer({ errorCode: 'XML0024' }), check)).toEqual({
      kind: 'not_found',
    });
    expect(readQueryAnswer(createQueryAnswer({ errorCode: 'XML0023' }), check)).toEqual({
      kind: 'error',
      code: 'XML0023',
    });
  });

  it('refuses an answer signed with another key, or for another order', () => {
    const forged = createQueryAnswer({
      secret: OTHER_KEY,
      order: '1234abcd',
      operations: [payment],
    });
    expect(readQueryAnswer(forged, check)).toEqual({ kind: 'bad_signature' });
    const replayed = createQueryAnswer({ secret: KEY, order: '9999zzzz', operations: [payment] });
    expect(readQueryAnswer(replayed, check)).toEqual({ kind: 'bad_signature' });
  });

  it.each([
    ['an empty body', ''],
    ['HTML', '<html><body>Bad gateway</body></html>'],
    ['not XML', '{"errorCode":"SIS0001"}'],
    [
      'a SOAP fault',
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>x</faultcode><faultstring>boom</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>',
    ],
    [
      'a DTD with entities',
      '<!DOCTYPE a [<!ENTITY x "y">]><soapenv:Envelope xmlns:soapenv="s"><soapenv:Body/></soapenv:Envelope>',
    ],
    [
      'a Response without Ds_State',
      createQueryAnswer({ ...check, operations: [payment] }).replace(
        '&lt;Ds_State&gt;F&lt;/Ds_State&gt;',
        '',
      ),
    ],
  ])('answers malformed for %s, without throwing', (_name, soap) => {
    const answer = readQueryAnswer(soap, check);
    expect(['malformed', 'bad_signature']).toContain(answer.kind);
  });
});

describe('classifyOperation (notes §1.2, §5, §6)', () => {
  it.each([
    [{ state: 'S', transactionType: '0' }, 'in_progress'],
    [{ state: 'P', transactionType: '0' }, 'in_progress'],
    [{ state: 'A', transactionType: '0' }, 'in_progress'],
    [{ state: 'F', response: '9998', transactionType: '0' }, 'in_progress'],
    [{ state: 'F', response: '9999', transactionType: '0' }, 'in_progress'],
    [{ state: 'F', response: '0000', transactionType: '0' }, 'approved'],
    [{ state: 'F', response: '0099', transactionType: '0' }, 'approved'],
    [{ state: 'F', response: '0000', transactionType: '7' }, 'approved'],
    [{ state: 'F', response: '0100', transactionType: '0' }, 'denied'],
    [{ state: 'F', response: '0190', transactionType: '0' }, 'denied'],
    [{ state: 'F', response: '9915', transactionType: '0' }, 'denied'],
    [{ state: 'F', response: '0900', transactionType: '0' }, 'denied'],
    [{ state: 'F', response: '0900', transactionType: '3' }, 'approved'],
    [{ state: 'F', response: '0000', transactionType: '3' }, 'denied'],
    [{ state: 'F', response: '0950', transactionType: '3' }, 'denied'],
    [{ state: 'F', transactionType: '0' }, 'unknown'],
    [{ state: 'T', transactionType: '0' }, 'unknown'],
    [{ state: 'E', response: '0000', transactionType: '0' }, 'unknown'],
  ] as const)('%j is %s', (operation, outcome) => {
    expect(classifyOperation(operation)).toBe(outcome);
  });
});
