// "Are you sure?" as a page of its own: works without JavaScript and needs no inline script.
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from './form-parts.ts';
import { layout, type HeaderNav } from './layout.ts';

export interface ConfirmDeleteOptions {
  nav: HeaderNav;
  csrfToken: string;
  heading: string;
  /** What will go, in a sentence. */
  consequence: string;
  action: string;
  cancelHref: string;
  buttonLabel: string;
}

export function confirmDeletePage(options: ConfirmDeleteOptions): SafeHtml {
  return layout({
    title: `${options.heading} · pagegrade`,
    description: options.consequence,
    nav: options.nav,
    main: html`<section class="panel panel--danger narrow">
  <h1>${options.heading}</h1>
  <p>${options.consequence} This cannot be undone.</p>
  <form method="post" action="${options.action}" class="form-actions">
    ${csrfField(options.csrfToken)}
    <button type="submit" class="button button--danger">${options.buttonLabel}</button>
    <a class="button button--quiet" href="${options.cancelHref}">Cancel</a>
  </form>
</section>`,
  });
}
