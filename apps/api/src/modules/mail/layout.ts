/** Escapes text for HTML e-mail bodies. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type Branding = { companyName: string; color: string; logoUrl: string | null };

/**
 * The branded frame of every e-mail: the tenant's colour and name, a heading, paragraphs and an
 * optional button. Inline styles only (e-mail clients ignore style sheets).
 */
export function brandedHtml(
  brand: Branding,
  content: {
    heading: string;
    paragraphs: string[];
    button?: { label: string; url: string };
    footer: string;
  },
): string {
  const color = `#${brand.color.replace(/^#/, '')}`;
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="40" height="40" style="vertical-align:middle;border-radius:8px;margin-right:10px">`
    : '';
  const button = content.button
    ? `<p style="margin:28px 0"><a href="${escapeHtml(content.button.url)}" style="background:${color};color:#fff;padding:12px 22px;border-radius:8px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(content.button.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;padding:24px">
<div style="background:${color};color:#fff;padding:16px 20px;border-radius:12px 12px 0 0;font-size:18px;font-weight:bold">${logo}${escapeHtml(brand.companyName)}</div>
<div style="background:#fff;padding:24px 20px;border-radius:0 0 12px 12px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="line-height:1.5;margin:0 0 12px">${escapeHtml(p)}</p>`).join('\n')}
${button}
<p style="font-size:12px;color:#71717a;margin-top:24px">${escapeHtml(content.footer)}</p>
</div></div></body></html>`;
}
