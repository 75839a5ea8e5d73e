// Whose name is on a page: pagegrade's own mark, or the operator's name, logo and colour (white-label,
// PAGEGRADE_BRAND_*; routes/brand.ts serves the logo and the colour's stylesheet).
import { html, type SafeHtml } from '../html.ts';

export interface BrandView {
  name: string;
  /** Where the server serves the logo; null: the name alone. */
  logoUrl: string | null;
  /** The stylesheet that sets the brand colour; null: the built-in palette. */
  themeUrl: string | null;
}

const PAGEGRADE = 'pagegrade';

export const BUILT_IN_BRAND: BrandView = { name: PAGEGRADE, logoUrl: null, themeUrl: null };

const PAGEGRADE_MARK = html`<svg class="brand-mark" viewBox="0 0 32 32" width="22" height="22" aria-hidden="true" focusable="false"><circle cx="16" cy="16" r="12" fill="none" stroke-width="6"></circle><path d="M16 4a12 12 0 1 1-11.4 15.7" fill="none" stroke-width="6" stroke-linecap="round"></path></svg>`;

/** The header's brand link: the logo (decorative, the name beside it says who) or pagegrade's mark, then the name. */
export function brandLink(brand: BrandView): SafeHtml {
  const mark = brand.logoUrl
    ? html`<img class="brand-logo" src="${brand.logoUrl}" alt="" height="32">`
    : brand.name === PAGEGRADE ? PAGEGRADE_MARK : '';
  return html`<a class="brand" href="/">${mark}<span class="brand-name">${brand.name}</span></a>`;
}

/**
 * The footer: a white-labelled page is the operator's document, so it names them and not pagegrade
 * (the software is credited in its README and licence, not on the client's report).
 */
export function brandFooter(brand: BrandView): SafeHtml {
  return brand.name === PAGEGRADE
    ? html`Made with pagegrade, a self-hosted SEO report service. <a href="/docs">API documentation</a>`
    : html`Report by <span class="brand-credit">${brand.name}</span>.`;
}
