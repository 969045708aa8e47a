import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { findPans, isLuhnValid } from './support/pan.ts';

const { logDir } = inject('resilience');
const testCard = '4548812049400004';

/**
 * Runs last (vitest.resilience.config.ts orders it): every log the API processes of this run
 * wrote, at info level, through faults, load and the card flows, is scanned for card numbers.
 * The gateway's own logs (gateway-*.log) are Redsys' side, where the card is typed: not ours.
 */
describe('the logs of the whole resilience run', () => {
  it('the scanner finds a card number in any usual shape, and nothing else', () => {
    expect(isLuhnValid(testCard)).toBe(true);
    expect(findPans(`{"msg":"card ${testCard} charged"}`)).toEqual([testCard]);
    expect(findPans('url=/pay?card_number=4548-8120-4940-0004&cvc=123')).toEqual([testCard]);
    expect(findPans('typed 4548 8120 4940 0004 12/34 on the page')).toEqual([testCard]);
    expect(findPans('card=4548812049400004&exp=1234')).toEqual([testCard]);
    expect(findPans('Mastercard 5576440022788500, Amex 378282246310005')).toHaveLength(2);
    // Masked numbers, timestamps, a number failing Luhn, too short or too long: not cards.
    expect(findPans('"card_masked":"454881******0004"')).toEqual([]);
    expect(findPans('{"level":30,"time":1795286189615,"pid":24979}')).toEqual([]);
    expect(findPans('"responseTime":15.457218999999895')).toEqual([]);
    expect(findPans('4548812049400005 454881204940 45488120494000041234')).toEqual([]);
    // Epoch milliseconds that pass Luhn, outside pino's own "time" (seen in a CI run); a 13-digit
    // Visa number still counts.
    expect(findPans('{"msg":"{\\"time\\":1795331733604}","at":1795331733604}')).toEqual([]);
    expect(findPans('old visa 4222222222222')).toEqual(['4222222222222']);
    // A request id whose inner groups read as a Luhn-valid 4-4-4-4 number (seen in a CI run).
    expect(findPans('"reqId":"abcd4548-8120-4940-0004-abcdef012345"')).toEqual([]);
    expect(findPans('"reqId":"abcd4548-8120-4940-0004-abcdef012345" 4548-8120-4940-0004')).toEqual([
      testCard,
    ]);
  });

  it('hold no card number in any log an API process wrote', () => {
    const files = readdirSync(logDir).filter((f) => f.startsWith('api-') && f.endsWith('.log'));
    // The scan means something only if the run logged the flows that handle cards.
    expect(files.length, `no API logs in ${logDir}: run the whole suite`).toBeGreaterThan(0);
    const all = files.map((f) => readFileSync(join(logDir, f), 'utf8')).join('\n');
    expect(all, 'the card flow ran with info logging').toMatch(
      /"outcome":"paid".*"msg":"Redsys notification"/,
    );
    let lines = 0;
    for (const file of files) {
      const text = readFileSync(join(logDir, file), 'utf8');
      lines += text.split('\n').length;
      // Where each one sits, so that a failure says what wrote it.
      const where = findPans(text).map((pan) => {
        const at = text.indexOf(pan);
        return text.slice(Math.max(0, at - 120), at + pan.length + 40);
      });
      expect(where, `card numbers in ${file}`).toEqual([]);
      expect(text, `the test card in ${file}`).not.toContain(testCard);
    }
    console.log(`scanned ${files.length} API logs, ${lines} lines: no card number`);
  });
});
