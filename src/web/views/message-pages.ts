// Pages that only say something: not found, and the errors a person can act on.
import { html, type SafeHtml } from '../html.ts';
import { layout } from './layout.ts';

/**
 * One page for a missing page, a missing report, a malformed id and a report that is private to
 * someone else: nothing in it depends on which, so a private report's existence never shows.
 */
export function notFoundPage(): SafeHtml {
  return layout({
    title: 'Not found · pagegrade',
    description: 'There is nothing at this address.',
    nav: { kind: 'none' },
    main: html`<section class="message">
  <h1>Not found</h1>
  <p>There is nothing at this address. If someone shared a report with you, check the link, or ask them
  whether the report is still shared.</p>
  <p><a href="/dashboard/reports">Go to your reports</a></p>
</section>`,
  });
}

export interface ErrorPageOptions {
  heading: string;
  message: string;
  /** Sentences that say exactly what was wrong, e.g. each invalid filter. */
  details?: readonly string[];
  back?: { href: string; label: string };
}

export function errorPage(options: ErrorPageOptions): SafeHtml {
  return layout({
    title: `${options.heading} · pagegrade`,
    description: options.message,
    nav: { kind: 'none' },
    main: html`<section class="message">
  <h1>${options.heading}</h1>
  <p>${options.message}</p>
  ${options.details?.length ? html`<ul class="error-list">${options.details.map((detail) => html`<li>${detail}</li>`)}</ul>` : ''}
  ${options.back ? html`<p><a href="${options.back.href}">${options.back.label}</a></p>` : ''}
</section>`,
  });
}
