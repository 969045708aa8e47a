import { createContext, useContext } from 'react';
import { defaultPrimaryColor } from '@portal/contract/paths';
import type { TLegalIdentity, TVisualConfig } from '@portal/contract/visual-config';
import { apiRequest } from './api-client';
import { applyPrimaryColor, normalizeHex, parseHex } from './colors';

/** The tenant's branding (spec §3 "Visual config"), as the app uses it. */
export type VisualConfig = {
  logoUrl: string | null;
  primaryColor: string;
  companyName: string;
  description: string;
  signInProviders: ('google' | 'apple' | 'microsoft')[];
  /** The sign-in screen offers "send me a link" by e-mail (issue 24). */
  signInLink: boolean;
  /** The tenant's second factor: not offered, each customer's choice, or required (issue 24). */
  secondFactor: 'off' | 'optional' | 'required';
  /** The sign-in screen and the profile offer passkeys (issue 24). */
  passkeys: boolean;
  /** Payments go to the local simulator: the side menu offers the "simulate failed payment" toggle. */
  testingMode: boolean;
  /** Payments are not real (the tenant is in test mode): every screen shows a banner saying so. */
  testMode: boolean;
  /** The company identity and mailboxes the legal pages show ('' where the tenant has none). */
  legal: TLegalIdentity;
  /** The payment methods screen offers auto-pay with a saved card (issue 23). */
  autoPay: boolean;
};

/** Spec §3 defaults: bundled logo, FF9900 and the provider's name; used when the call fails. */
export const defaultVisualConfig: VisualConfig = {
  logoUrl: null,
  primaryColor: `#${defaultPrimaryColor}`,
  companyName: 'Oficina Online',
  description: '',
  signInProviders: [],
  signInLink: false,
  secondFactor: 'off',
  passkeys: false,
  testingMode: false,
  testMode: false,
  legal: {
    name: '',
    tax_id: '',
    address: '',
    contact_email: '',
    privacy_email: '',
    dpo_email: '',
    phone: '',
    website: '',
    opening_hours: '',
  },
  autoPay: false,
};

/** The API's visual config as the app uses it, defaults filling what is missing (spec §3). */
export function toVisualConfig(config: TVisualConfig): VisualConfig {
  const primaryColor = normalizeHex(config.primary_color ?? '');
  return {
    logoUrl: config.logo_url || null,
    primaryColor: parseHex(primaryColor) ? primaryColor : defaultVisualConfig.primaryColor,
    companyName: config.company_name || defaultVisualConfig.companyName,
    description: config.description ?? '',
    signInProviders: Array.isArray(config.sign_in_providers) ? config.sign_in_providers : [],
    signInLink: config.sign_in_link === true,
    secondFactor: ['optional', 'required'].includes(config.second_factor)
      ? config.second_factor
      : 'off',
    passkeys: config.passkeys === true,
    testingMode: config.testing_mode === true,
    testMode: config.test_mode === true,
    legal: { ...defaultVisualConfig.legal, ...config.legal },
    autoPay: config.auto_pay === true,
  };
}

/** The branding of this host's tenant, or the defaults (logged) when it cannot be had. */
export async function fetchVisualConfig(): Promise<VisualConfig> {
  try {
    return toVisualConfig(await apiRequest('visualConfig'));
  } catch (error) {
    console.error('Could not load the visual config; using the defaults', error);
    return defaultVisualConfig;
  }
}

/** Paints the primary colour scale and names the browser tab after the company. */
export function applyVisualConfig(config: VisualConfig): void {
  applyPrimaryColor(config.primaryColor);
  document.title = config.companyName;
}

/** Loaded once at start (spec §7); never rejects. */
export async function loadVisualConfig(): Promise<VisualConfig> {
  const config = await fetchVisualConfig();
  applyVisualConfig(config);
  return config;
}

export const VisualConfigContext = createContext<VisualConfig>(defaultVisualConfig);

export function useVisualConfig(): VisualConfig {
  return useContext(VisualConfigContext);
}
