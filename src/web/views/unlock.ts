// The password form of a password-protected report. It names nothing about the report (not even its
// URL), so the page says no more than that a protected report has this number.
import { html, type SafeHtml } from '../html.ts';
import type { BrandView } from './brand.ts';
import { layout } from './layout.ts';

export interface UnlockPageOptions {
  reportId: number;
  csrfToken: string;
  signedIn: boolean;
  /** Shown above the field after a wrong or refused attempt. */
  error?: string;
  brand: BrandView;
}

export function unlockPage(options: UnlockPageOptions): SafeHtml {
  const { error } = options;
  return layout({
    title: `Password-protected report · ${options.brand.name}`,
    description: 'This SEO report is protected by a password.',
    nav: { kind: options.signedIn ? 'signed-in' : 'signed-out' },
    brand: options.brand,
    main: html`<section class="panel narrow">
  <h1>Password-protected report</h1>
  <p>The owner of this report protected it with a password. Enter it to open the report in this browser until you close it.</p>
  <form method="post" action="/reports/${options.reportId}/unlock" class="form">
    <input type="hidden" name="_csrf" value="${options.csrfToken}">
    ${error ? html`<p class="form-error" id="password-error" role="alert">${error}</p>` : ''}
    <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${error ? html` aria-invalid="true" aria-describedby="password-error" autofocus` : ''}>
    </div>
    <button type="submit" class="button button--primary">Open report</button>
  </form>
</section>`,
  });
}
