import { describe, expect, it } from 'vitest';
import { findPans } from './pan.ts';

describe('findPans', () => {
  it('finds a card number among the fields of a notification', () => {
    const params = JSON.stringify({ Ds_Order: '0001abcd', Ds_Card_Number: '4548812049400004' });
    expect(findPans(params)).toEqual(['4548812049400004']);
  });

  it("does not read the scheme's card-on-file id as a card number", () => {
    // The id a CI run found (Luhn-valid, 13 digits from 4), as the gateway and the portal name it.
    const params = JSON.stringify({
      Ds_Merchant_Cof_Txnid: '4175950438479',
      Ds_Card_Number: '454881******0004',
    });
    expect(findPans(params)).toEqual([]);
    expect(findPans('{"redsys_cof_txnid": "4175950438479"}')).toEqual([]);
    expect(findPans('{"cofTxnid":"4175950438479"}')).toEqual([]);
    // The same digits under any other name are still a Visa number.
    expect(findPans('{"Ds_Merchant_Identifier":"4175950438479"}')).toEqual(['4175950438479']);
  });
});
