// The sign-in form: paste an API key. The key is checked once and never shown back or kept in a cookie.
import { html, type SafeHtml } from '../html.ts';
import { layout } from './layout.ts';

export interface SignInPageOptions {
  csrfToken: string;
  error?: string;
  notice?: string;
}

export function signInPage(options: SignInPageOptions): SafeHtml {
  const { error, notice } = options;
  return layout({
    title: 'Sign in · pagegrade',
    description: 'Sign in to pagegrade with your API key.',
    nav: { kind: 'none' },
    main: html`<section class="panel narrow">
  <h1>Sign in</h1>
  ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
  <p>Paste your API key: the one the server printed at its first start, or one made with
  <code>pagegrade keys create</code>. This browser then stays signed in for a week; the key itself is not stored in it.</p>
  <form method="post" action="/sign-in" class="form">
    <input type="hidden" name="_csrf" value="${options.csrfToken}">
    ${error ? html`<p class="form-error" id="api-key-error" role="alert">${error}</p>` : ''}
    <div class="field">
      <label for="api-key">API key</label>
      <input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required maxlength="512" placeholder="pg_…"${error ? html` aria-invalid="true" aria-describedby="api-key-error" autofocus` : ''}>
    </div>
    <button type="submit" class="button button--primary">Sign in</button>
  </form>
</section>`,
  });
}
