/** A simple SVG logo for a demo tenant: its initials on a badge of its colour. */
export function demoLogoSvg(initials: string, color: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" role="img"><title>${initials}</title><rect width="96" height="96" rx="22" fill="#${color}"/><circle cx="48" cy="48" r="30" fill="none" stroke="#fff" stroke-width="5" opacity=".35"/><text x="48" y="60" font-family="Arial,Helvetica,sans-serif" font-size="34" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
}
