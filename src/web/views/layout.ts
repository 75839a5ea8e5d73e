// The page shell every web page shares: head (title, description, noindex, stylesheets), a skip link,
// the header with the brand and the navigation, the main content and the footer.
import { assetUrl } from '../assets.ts';
import { html, type SafeHtml } from '../html.ts';
import { BUILT_IN_BRAND, brandFooter, brandLink, type BrandView } from './brand.ts';

export type DashboardSection = 'reports' | 'new-report' | 'crawls' | 'projects' | 'webhooks' | null;

/** What the header offers: the dashboard menu for a signed-in account, or a way in or back. */
export type HeaderNav =
  | { kind: 'dashboard'; email: string; csrfToken: string; current: DashboardSection }
  | { kind: 'signed-in' }
  | { kind: 'signed-out' }
  | { kind: 'none' };

export interface PageOptions {
  title: string;
  description: string;
  main: SafeHtml;
  nav: HeaderNav;
  /** Loads the script that shows progress on report forms and the password field when needed. */
  formScript?: boolean;
  /** Reloads the page after this many seconds (a report whose analysis is under way). */
  refreshSeconds?: number;
  /** Whose name, logo and colour the page wears (white-label); pagegrade's own when not given. */
  brand?: BrandView;
  /** The page is one wide table (the reports list): it takes a wide screen's width. */
  wide?: boolean;
}

function navLink(href: string, label: string, current: boolean): SafeHtml {
  return html`<a href="${href}"${current ? html` aria-current="page"` : ''}>${label}</a>`;
}

function headerNav(nav: HeaderNav): SafeHtml {
  switch (nav.kind) {
    case 'dashboard':
      return html`<nav class="site-nav" aria-label="Dashboard">
  <ul>
    <li>${navLink('/dashboard/reports', 'Reports', nav.current === 'reports')}</li>
    <li>${navLink('/dashboard/reports/new', 'New report', nav.current === 'new-report')}</li>
    <li>${navLink('/dashboard/crawls', 'Crawls', nav.current === 'crawls')}</li>
    <li>${navLink('/dashboard/projects', 'Projects', nav.current === 'projects')}</li>
    <li>${navLink('/dashboard/webhooks', 'Webhooks', nav.current === 'webhooks')}</li>
  </ul>
  <form class="sign-out" method="post" action="/sign-out">
    <input type="hidden" name="_csrf" value="${nav.csrfToken}">
    <span class="account-email">${nav.email}</span>
    <button type="submit" class="button button--quiet">Sign out</button>
  </form>
</nav>`;
    case 'signed-in':
      return html`<nav class="site-nav" aria-label="Site"><ul><li><a href="/dashboard/reports">Your reports</a></li></ul></nav>`;
    case 'signed-out':
      return html`<nav class="site-nav" aria-label="Site"><ul><li><a href="/sign-in">Sign in</a></li></ul></nav>`;
    case 'none':
      return html``;
    default:
      throw new Error(`unknown header ${JSON.stringify(nav satisfies never)}`);
  }
}

export function layout(options: PageOptions): SafeHtml {
  const brand = options.brand ?? BUILT_IN_BRAND;
  const container = options.wide ? 'container container--wide' : 'container';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<meta name="description" content="${options.description}">
<meta name="robots" content="noindex">
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${String(options.refreshSeconds)}">` : ''}
<link rel="stylesheet" href="${assetUrl('app.css')}">
<link rel="stylesheet" href="${assetUrl('print.css')}" media="print">
${brand.themeUrl ? html`<link rel="stylesheet" href="${brand.themeUrl}">` : ''}
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
${options.formScript ? html`<script src="${assetUrl('report-forms.js')}" defer></script>` : ''}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="${container} site-header-inner">
    ${brandLink(brand)}
    ${headerNav(options.nav)}
  </div>
</header>
<main id="main" class="${container}" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
  <div class="${container}">${brandFooter(brand)}</div>
</footer>
</body>
</html>
`;
}
