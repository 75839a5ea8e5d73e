// Pieces every dashboard form uses: the CSRF field, field errors tied to their inputs, the privacy
// choice with its password field, the render checkbox, and the progress line the form script fills in.
import { allChecks } from '../../checks/index.ts';
import type { Privacy } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { PRIVACY_DESCRIPTIONS, PRIVACY_NAMES } from './format.ts';

/** Field name -> sentences, as the schemas and services word them. */
export type FieldErrors = Record<string, string[]>;

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

function fieldErrorId(field: string): string {
  return `${field}-error`;
}

export function fieldError(errors: FieldErrors, field: string): SafeHtml | '' {
  const messages = errors[field];
  if (!messages?.length) return '';
  return html`<p class="field-error" id="${fieldErrorId(field)}">${messages.join(' ')}</p>`;
}

/** aria attributes that tie an input to its error message. */
export function invalidAttributes(errors: FieldErrors, field: string): SafeHtml | '' {
  return errors[field]?.length ? html` aria-invalid="true" aria-describedby="${fieldErrorId(field)}"` : '';
}

/** The render=1 checkbox of the report and crawl forms, offered when the server has a browser. */
export function renderField(checked: boolean, errors: FieldErrors): SafeHtml {
  const invalid = Boolean(errors.render?.length);
  return html`<div class="field field--check">
      <input id="render" name="render" type="checkbox" value="1"${checked ? html` checked` : ''} aria-describedby="render-hint${invalid ? ' render-error' : ''}"${invalid ? html` aria-invalid="true"` : ''}>
      <label for="render">Also render in a browser</label>
      <p class="hint" id="render-hint">Loads the page in headless Chromium and shows what its JavaScript changes: what search engines and AI crawlers that do not run scripts miss.</p>
      ${fieldError(errors, 'render')}
    </div>`;
}

/** Errors on fields the form does not show (e.g. the body as a whole), listed at the top. */
export function otherErrors(errors: FieldErrors, shownFields: readonly string[]): SafeHtml | '' {
  const other = Object.entries(errors).filter(([field]) => !shownFields.includes(field));
  if (other.length === 0) return '';
  return html`<div class="form-error" role="alert"><ul>${other.flatMap(([, messages]) => messages.map((message) => html`<li>${message}</li>`))}</ul></div>`;
}

export interface PrivacyFieldsOptions {
  selected: Privacy;
  errors: FieldErrors;
  /** The report already has a password: an empty field keeps it. */
  hasPassword: boolean;
}

/** A radio button with its name and description for each of `values`. */
export function privacyChoices(values: readonly Privacy[], selected: Privacy): SafeHtml[] {
  return values.map(
    (value) => html`<div class="choice">
  <input type="radio" id="privacy-${value}" name="privacy" value="${value}"${value === selected ? html` checked` : ''}>
  <label for="privacy-${value}"><strong>${PRIVACY_NAMES[value]}</strong> <span class="hint">${PRIVACY_DESCRIPTIONS[value]}</span></label>
</div>`,
  );
}

export function privacyFields({ selected, errors, hasPassword }: PrivacyFieldsOptions): SafeHtml {
  const choices = privacyChoices([0, 1, 2], selected);
  const passwordHint = hasPassword
    ? 'Only for Password. Leave it empty to keep the current password.'
    : 'Only for Password: 1 to 128 characters. Share it with the people who should see the report.';
  return html`<fieldset class="field privacy-fields" data-privacy>
  <legend>Who can see the report</legend>
  ${fieldError(errors, 'privacy')}
  ${choices}
</fieldset>
<div class="field" data-password-field>
  <label for="password">Password</label>
  <p class="hint" id="password-hint">${passwordHint}</p>
  ${fieldError(errors, 'password')}
  <input id="password" name="password" type="password" autocomplete="new-password" maxlength="128"${errors.password?.length ? html` aria-invalid="true" aria-describedby="password-hint ${fieldErrorId('password')}"` : html` aria-describedby="password-hint"`}>
</div>`;
}

/** The steps the form script shows while the server fetches and analyses the page. */
export const PROGRESS_STEPS = [
  'Fetching the page…',
  'Fetching robots.txt, the sitemap and a missing page…',
  `Running ${allChecks.length} checks…`,
  'Scoring and saving the report…',
].join('|');

/** A submit button and the live region the form script fills with progress. */
export function progressSubmit(label: string): SafeHtml {
  return html`<div class="form-actions">
  <button type="submit" class="button button--primary">${label}</button>
  <p class="progress" data-progress-status role="status" aria-live="polite"></p>
</div>`;
}
