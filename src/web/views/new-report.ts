// The form that creates a report. A normal POST that answers when the analysis is done; the form
// script only adds a progress message. After an error the values come back, never the password.
import type { Privacy } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { PROGRESS_STEPS, csrfField, fieldError, invalidAttributes, otherErrors, privacyFields, progressSubmit, renderField, type FieldErrors } from './form-parts.ts';
import { layout, type HeaderNav } from './layout.ts';

export interface NewReportPageOptions {
  nav: HeaderNav;
  csrfToken: string;
  values: { url: string; privacy: Privacy; background: boolean; render: boolean };
  errors: FieldErrors;
  /** The server has a browser: the form offers render=1. */
  renderingAvailable: boolean;
}

export function newReportPage({ nav, csrfToken, values, errors, renderingAvailable }: NewReportPageOptions): SafeHtml {
  return layout({
    title: 'New report · pagegrade',
    description: 'Analyse a page and keep its SEO report.',
    nav,
    formScript: true,
    main: html`<section class="panel">
  <h1>New report</h1>
  <p>pagegrade fetches the page, runs its checks and keeps the report. It takes a few seconds.</p>
  <form method="post" action="/dashboard/reports" class="form" data-progress="${PROGRESS_STEPS}">
    ${csrfField(csrfToken)}
    ${otherErrors(errors, ['url', 'privacy', 'password', 'async', ...(renderingAvailable ? ['render'] : [])])}
    <div class="field">
      <label for="url">Page URL</label>
      <p class="hint" id="url-hint">An http or https address, such as https://example.com/pricing.</p>
      ${fieldError(errors, 'url')}
      <input id="url" name="url" type="url" inputmode="url" autocomplete="url" required maxlength="2048" value="${values.url}"${errors.url?.length ? invalidAttributes(errors, 'url') : html` aria-describedby="url-hint"`}>
    </div>
    ${privacyFields({ selected: values.privacy, errors, hasPassword: false })}
    <div class="field field--check">
      <input id="async" name="async" type="checkbox" value="1"${values.background ? html` checked` : ''} aria-describedby="async-hint">
      <label for="async">Analyse in the background</label>
      <p class="hint" id="async-hint">The report opens at once and fills in when the analysis is done.</p>
    </div>
    ${renderingAvailable ? renderField(values.render, errors) : ''}
    ${progressSubmit('Analyse the page')}
  </form>
</section>`,
  });
}
