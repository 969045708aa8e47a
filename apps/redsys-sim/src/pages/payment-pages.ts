import { BRAND_NAMES, TEST_CARDS } from '../cards.ts';
import { MESSAGES } from '../i18n.ts';
import type { Language, Messages } from '../i18n.ts';
import { escapeHtml, layout } from './html.ts';

/** What every payment page shows on top: the amount, who is charging and for which order. */
export type PaymentSummary = {
  language: Language;
  amountCents: string;
  currency: string;
  merchantName: string;
  order: string;
};

export type CardFormErrors = Partial<Record<'cardNumber' | 'expiry' | 'cvc', string>>;

// ISO 4217 numeric codes Redsys uses; the portal only sends euros.
const CURRENCIES: Record<string, string> = { '978': 'EUR', '840': 'USD', '826': 'GBP' };

/** Always es-ES ("1.234,56 €"): Redsys shows amounts the Spanish way whatever the language. */
export function formatAmount(amountCents: string, currency: string): string {
  return new Intl.NumberFormat('es-ES', {
    style: 'currency',
    currency: CURRENCIES[currency] ?? 'EUR',
  }).format(Number(amountCents) / 100);
}

function summary(t: Messages, s: PaymentSummary): string {
  return `<dl class="summary">
<dt>${escapeHtml(t.amount)}</dt><dd class="amount">${escapeHtml(formatAmount(s.amountCents, s.currency))}</dd>
<dt>${escapeHtml(t.merchant)}</dt><dd>${escapeHtml(s.merchantName)}</dd>
<dt>${escapeHtml(t.order)}</dt><dd>${escapeHtml(s.order)}</dd>
</dl>`;
}

function field(id: string, label: string, error: string | undefined, attributes: string): string {
  const errorId = `${id}-error`;
  const described = error ? ` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const message = error ? `<p class="field-error" id="${errorId}">${escapeHtml(error)}</p>` : '';
  return `<div class="field"><label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" ${attributes}${described}>${message}</div>`;
}

function buttons(t: Messages, primary: string): string {
  // Cancel skips the browser's own validation: cancelling needs no card.
  return `<div class="actions">
<button class="primary" type="submit" name="action" value="pay">${escapeHtml(primary)}</button>
<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>${escapeHtml(t.cancel)}</button>
</div>`;
}

export function renderCardPage(input: {
  summary: PaymentSummary;
  action: string;
  errors?: CardFormErrors;
  forcedDecline: boolean;
}): string {
  const t = MESSAGES[input.summary.language];
  const errors = input.errors ?? {};
  const hasErrors = Object.values(errors).some(Boolean);
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(t.cardTitle)}</h1>
${summary(t, input.summary)}
${input.forcedDecline ? `<p class="notice">${escapeHtml(t.forcedDecline)}</p>` : ''}
${hasErrors ? `<p class="alert" role="alert">${escapeHtml(t.checkCard)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" autocomplete="on">
${field(
  'card-number',
  t.cardNumber,
  errors.cardNumber,
  // The customer came here to type the card: its number takes the focus (review #28), unless
  // another field is the one to correct.
  `name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" required${!hasErrors || errors.cardNumber ? ' autofocus' : ''}`,
)}
<div class="row">
${field(
  'expiry',
  t.expiry,
  errors.expiry,
  `name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="${escapeHtml(t.expiryPlaceholder)}" maxlength="7" required${errors.expiry && !errors.cardNumber ? ' autofocus' : ''}`,
)}
${field(
  'cvc',
  t.cvc,
  errors.cvc,
  `name="cvc" type="password" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required${errors.cvc && !errors.cardNumber && !errors.expiry ? ' autofocus' : ''}`,
)}
</div>
${buttons(t, t.pay)}
</form>
</section>
<section class="panel" aria-labelledby="test-cards">
<h2 id="test-cards">${escapeHtml(t.testCards)}</h2>
<p class="muted">${escapeHtml(t.testCardsHint)}</p>
<ul class="cards">
<li><span class="pan">${TEST_CARDS.authorised}</span><span>${escapeHtml(t.cardAuthorised)}</span></li>
<li><span class="pan">${TEST_CARDS.declined}</span><span>${escapeHtml(t.cardDeclined)}</span></li>
<li><span class="pan">${TEST_CARDS.challenge}</span><span>${escapeHtml(t.cardChallenge)}</span></li>
</ul>
</section>`;
  return layout(input.summary.language, t, t.cardTitle, body);
}

export function renderChallengePage(input: { summary: PaymentSummary; action: string }): string {
  const t = MESSAGES[input.summary.language];
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(t.challengeTitle)}</h1>
${summary(t, input.summary)}
<p>${escapeHtml(t.challengeText)}</p>
<p class="muted">${escapeHtml(t.challengeHint)}</p>
<form method="post" action="${escapeHtml(input.action)}">
${field('code', t.challengeCode, undefined, 'name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required')}
${buttons(t, t.confirm)}
</form>
</section>`;
  return layout(input.summary.language, t, t.challengeTitle, body);
}

export function renderSavedCardPage(input: {
  summary: PaymentSummary;
  action: string;
  lastFour: string;
  brand: string | undefined;
  expiry: string;
  forcedDecline: boolean;
}): string {
  const t = MESSAGES[input.summary.language];
  const brand = (input.brand && BRAND_NAMES[input.brand]) ?? '';
  const expiry = `${input.expiry.slice(2, 4)}/${input.expiry.slice(0, 2)}`;
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(t.savedTitle)}</h1>
${summary(t, input.summary)}
${input.forcedDecline ? `<p class="notice">${escapeHtml(t.forcedDecline)}</p>` : ''}
<p>${escapeHtml(t.savedText)}:</p>
<div class="saved">${brand ? `<span class="brand">${escapeHtml(brand)}</span>` : ''}<span class="pan">****${escapeHtml(input.lastFour)}</span><span class="muted">${escapeHtml(t.expires)} ${escapeHtml(expiry)}</span></div>
<form method="post" action="${escapeHtml(input.action)}">
${buttons(t, t.pay)}
</form>
</section>`;
  return layout(input.summary.language, t, t.savedTitle, body);
}

export function renderErrorPage(language: Language, code: string, detail: string): string {
  const t = MESSAGES[language];
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(t.errorTitle)}</h1>
<p class="alert" role="alert">${escapeHtml(t.errorCode)}: <span class="code">${escapeHtml(code)}</span></p>
<p>${escapeHtml(detail)}</p>
<p class="muted">${escapeHtml(t.errorText)}</p>
</section>`;
  return layout(language, t, `${t.errorTitle} (${code})`, body);
}

/** Shown only when the request carried no usable UrlOK/UrlKO to send the customer back to. */
export function renderResultPage(
  language: Language,
  authorised: boolean,
  dsResponse: string,
): string {
  const t = MESSAGES[language];
  const title = authorised ? t.resultAuthorised : t.resultDenied;
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(title)}</h1>
<p>${escapeHtml(t.responseCode)}: <span class="code">${escapeHtml(dsResponse)}</span></p>
<p class="muted">${escapeHtml(t.resultText)}</p>
</section>`;
  return layout(language, t, title, body);
}

/**
 * Bizum, first step (redsys-notes §3, Ds_Merchant_PayMethods=z): the customer's mobile number,
 * the one their bank has registered for Bizum. No card data is asked.
 */
export function renderBizumPage(input: {
  summary: PaymentSummary;
  action: string;
  phone?: string;
  invalid?: boolean;
  forcedDecline: boolean;
}): string {
  const t = MESSAGES[input.summary.language];
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title"><span class="bizum" aria-hidden="true">bizum</span> ${escapeHtml(t.bizumTitle)}</h1>
${summary(t, input.summary)}
${input.forcedDecline ? `<p class="notice">${escapeHtml(t.forcedDecline)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
${field(
  'phone',
  t.bizumPhone,
  input.invalid ? t.bizumInvalidPhone : undefined,
  `name="phone" type="tel" inputmode="tel" autocomplete="tel-national" maxlength="16" required autofocus value="${escapeHtml(input.phone ?? '')}"${input.invalid ? '' : ' aria-describedby="phone-hint"'}`,
)}
<p class="muted" id="phone-hint">${escapeHtml(t.bizumPhoneHint)}</p>
${buttons(t, t.bizumContinue)}
</form>
</section>
<section class="panel" aria-labelledby="test-bizum">
<h2 id="test-bizum">${escapeHtml(t.bizumTestTitle)}</h2>
<p class="muted">${escapeHtml(t.bizumTestHint)}</p>
</section>`;
  return layout(input.summary.language, t, t.bizumTitle, body);
}

/**
 * Bizum, second step: the request waits in the customer's bank app (the real one shows a push
 * notification there); here the "app" is two buttons, accept or reject. The phone is masked.
 */
export function renderBizumAppPage(input: {
  summary: PaymentSummary;
  action: string;
  maskedPhone: string;
}): string {
  const t = MESSAGES[input.summary.language];
  const body = `<section class="panel" aria-labelledby="title">
<h1 id="title">${escapeHtml(t.bizumAppTitle)}</h1>
${summary(t, input.summary)}
<p>${escapeHtml(t.bizumAppText)} <span class="pan nowrap">${escapeHtml(input.maskedPhone)}</span>.</p>
<p class="muted">${escapeHtml(t.bizumAppHint)}</p>
<form method="post" action="${escapeHtml(input.action)}">
<div class="actions">
<button class="primary" type="submit" name="action" value="pay">${escapeHtml(t.bizumAppConfirm)}</button>
<button class="secondary" type="submit" name="action" value="reject">${escapeHtml(t.bizumAppReject)}</button>
</div>
<div class="actions single"><button class="secondary" type="submit" name="action" value="cancel">${escapeHtml(t.cancel)}</button></div>
</form>
</section>`;
  return layout(input.summary.language, t, t.bizumAppTitle, body);
}
