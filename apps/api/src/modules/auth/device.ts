import { isIPv4, isIPv6 } from 'node:net';
import Bowser from 'bowser';
import { BROWSER_MAP } from 'bowser/src/constants.js';
import type { TDeviceType } from '@portal/contract';

export type DeviceDescription = { browser: string; os: string; device_type: TDeviceType };

const deviceTypes: readonly TDeviceType[] = ['desktop', 'mobile', 'tablet'];
/**
 * The browsers bowser knows by name. For any other User-Agent it names whatever comes before the
 * first `/`, which the sender writes: "Actualización del sistema, nada que hacer/2.0" was the
 * browser the new-sign-in alert and "Your devices" named to the account's owner (session 37).
 */
const knownBrowsers = new Set(Object.values(BROWSER_MAP));
/** A User-Agent longer than this is not a browser's: it is described as unknown. */
const maxUserAgent = 512;

/** "Chrome 131", "Safari 17": the name and the major version only. */
const named = (name: string | undefined, version: string | undefined): string => {
  if (!name) return '';
  const major = version?.split('.')[0];
  return (major && /^\d+$/.test(major) ? `${name} ${major}` : name).slice(0, 60);
};

/**
 * What "Your devices" shows of a session: browser, system and kind of device, parsed once when the
 * session opens (bowser, decision 026). An unknown or absurd User-Agent gives empty strings, which
 * the web app words as "unknown browser".
 */
export function describeDevice(userAgent: string | undefined): DeviceDescription {
  if (!userAgent || userAgent.length > maxUserAgent)
    return { browser: '', os: '', device_type: '' };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type as TDeviceType | undefined;
  return {
    browser: knownBrowsers.has(parsed.browser.name ?? '')
      ? named(parsed.browser.name, parsed.browser.version)
      : '',
    os: named(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    device_type: type && deviceTypes.includes(type) ? type : '',
  };
}

/**
 * The network a session came from, never the address: an IPv4 /24 ("83.45.120.*") or an IPv6 /48
 * ("2001:db8:1234::/48"). Enough for a customer to tell home from elsewhere, not to place anyone.
 */
export function networkOf(ip: string | undefined): string {
  if (!ip) return '';
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.*`;
  if (!isIPv6(ip)) return '';
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const prefix = groups
    .slice(0, 3)
    .map((g) => g.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':');
  return `${prefix}::/48`;
}
