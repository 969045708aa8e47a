import type { Language, Messages } from '../i18n.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every value that reaches a page passes through here: merchant names come from the request. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

// Inline on purpose: this is the gateway's page, not the portal's, and it must load nothing from
// anywhere else (the browser may be offline). 16px inputs keep mobile browsers from zooming; the
// expiry/CVC row is a subgrid so both inputs line up whatever their labels' lengths.
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;background:#eef0f3}
.banner{background:#2b2d33;color:#fff;padding:.6rem 1rem;font-size:.875rem;text-align:center}
.banner strong{color:#fdba74}
main{max-width:30rem;margin:0 auto;padding:1rem}
.panel{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:1.25rem;margin-bottom:1rem}
h1{font-size:1.25rem;margin:0 0 1rem}
h2{font-size:1rem;margin:0 0 .5rem}
.summary{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.25rem;padding:0 0 1rem;border-bottom:1px solid #e5e7eb}
.summary dt{color:#4b5563}
.summary dd{margin:0;text-align:right;font-weight:600;overflow-wrap:anywhere}
.summary .amount{font-size:1.375rem;color:#111827}
label{display:block;font-weight:600;margin:0 0 .25rem}
.field{margin:0 0 1rem}
input{display:block;width:100%;font:inherit;font-size:1rem;padding:.7rem .75rem;border:1px solid #8b929c;border-radius:8px;background:#fff;color:inherit}
input:focus{outline:3px solid #2563eb;outline-offset:1px;border-color:#2563eb}
input[aria-invalid=true]{border-color:#b91c1c}
.row{display:grid;grid-template-columns:1fr 1fr;grid-template-rows:auto auto auto;column-gap:.75rem;margin:0 0 1rem}
.row .field{display:grid;grid-row:span 3;grid-template-rows:subgrid;margin:0}
.row .field label{align-self:end}
.field-error{color:#b91c1c;font-size:.875rem;margin:.25rem 0 0}
.actions{display:grid;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;font-size:1rem;padding:.8rem 1rem;border-radius:8px;cursor:pointer;min-height:44px}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.primary{background:#c2410c;border:1px solid #c2410c;color:#fff}
.primary:hover{background:#9a3412}
.secondary{background:#fff;border:1px solid #6b7280;color:#1f2937}
.alert{border-left:4px solid #b91c1c;background:#fef2f2;color:#7f1d1d;padding:.75rem;border-radius:4px;margin:0 0 1rem}
.notice{border-left:4px solid #b45309;background:#fffbeb;color:#78350f;padding:.75rem;border-radius:4px;margin:0 0 1rem}
.muted{color:#4b5563;font-size:.875rem}
.cards{list-style:none;margin:.5rem 0 0;padding:0}
.cards li{display:grid;grid-template-columns:auto 1fr;gap:1rem;align-items:baseline;padding:.5rem 0;border-top:1px solid #e5e7eb}
.cards li span:last-child{text-align:right}
.pan{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95rem;letter-spacing:.02em}
.saved{display:flex;align-items:center;gap:.75rem;padding:.75rem;border:1px solid #d1d5db;border-radius:8px;margin:0 0 1rem}
.saved .brand{font-weight:700;background:#1e3a8a;color:#fff;border-radius:4px;padding:.1rem .45rem;font-size:.8rem}
.bizum{display:inline-block;background:#05c3dd;color:#0b2239;font-weight:800;border-radius:6px;padding:0 .4rem;margin-right:.25rem;letter-spacing:-.01em}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:700}
.nowrap{white-space:nowrap}
@media (min-width:40rem){main{padding-top:2rem}.actions{grid-template-columns:1fr 1fr}.actions.single{grid-template-columns:1fr}}
`;

export function layout(lang: Language, t: Messages, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Redsys (${escapeHtml(t.simulator)})</title>
<style>${STYLE}</style>
</head>
<body>
<header class="banner"><strong>Redsys</strong> · ${escapeHtml(t.banner)}</header>
<main>
${body}
</main>
</body>
</html>
`;
}
