// The form that starts a crawl (a site audit). The crawl runs in the background: the form lands on the
// crawl's page, which shows its progress. After an error the values come back with each field's message.
import { html, type SafeHtml } from '../html.ts';
import { CRAWL_SETTING_FIELDS, crawlSettingsFields, type CrawlFormSettings } from './crawl-form-settings.ts';
import { csrfField, fieldError, otherErrors, privacyChoices, renderField, type FieldErrors } from './form-parts.ts';
import { formatNumber } from './format.ts';
import { layout, type HeaderNav } from './layout.ts';

export interface NewCrawlValues extends CrawlFormSettings {
  url: string;
  /** As typed, so an invalid number comes back as it was sent. */
  max_pages: string;
  max_depth: string;
  sitemap: boolean;
  privacy: 0 | 1;
  render: boolean;
}

export interface NewCrawlPageOptions {
  nav: HeaderNav;
  csrfToken: string;
  values: NewCrawlValues;
  errors: FieldErrors;
  /** PAGEGRADE_CRAWL_MAX_PAGES */
  maxPagesLimit: number;
  maxDepthLimit: number;
  /** The server has a browser: the form offers render=1. */
  renderingAvailable: boolean;
}

/** The hint, and the error when there is one, describe the input. */
function describedBy(errors: FieldErrors, field: string): SafeHtml {
  const invalid = Boolean(errors[field]?.length);
  return html` aria-describedby="${field}-hint${invalid ? ` ${field}-error` : ''}"${invalid ? html` aria-invalid="true"` : ''}`;
}

export function newCrawlPage({ nav, csrfToken, values, errors, maxPagesLimit, maxDepthLimit, renderingAvailable }: NewCrawlPageOptions): SafeHtml {
  return layout({
    title: 'New crawl · pagegrade',
    description: 'Crawl a site: analyse its pages and check the site as a whole.',
    nav,
    main: html`<section class="panel">
  <h1>New crawl</h1>
  <p>pagegrade follows the links of the site from the start page, on its host only and as its robots.txt allows,
  analyses every HTML page it reaches and then checks the site as a whole. It runs in the background: the crawl's page shows its progress.</p>
  <form method="post" action="/dashboard/crawls" class="form">
    ${csrfField(csrfToken)}
    ${otherErrors(errors, ['url', 'max_pages', 'max_depth', 'sitemap', 'privacy', ...CRAWL_SETTING_FIELDS, ...(renderingAvailable ? ['render'] : [])])}
    <div class="field">
      <label for="url">Start URL</label>
      <p class="hint" id="url-hint">An http or https address, such as https://example.com/. The crawl stays on its host. (With a list of URLs below, it may stay empty.)</p>
      ${fieldError(errors, 'url')}
      <input id="url" name="url" type="url" inputmode="url" autocomplete="url" maxlength="2048" value="${values.url}"${describedBy(errors, 'url')}>
    </div>
    <div class="field-row">
      <div class="field">
        <label for="max_pages">Most pages</label>
        <p class="hint" id="max_pages-hint">HTML pages to analyse: 1 to ${formatNumber(maxPagesLimit)}.</p>
        ${fieldError(errors, 'max_pages')}
        <input id="max_pages" name="max_pages" type="number" inputmode="numeric" required min="1" max="${maxPagesLimit}" step="1" value="${values.max_pages}"${describedBy(errors, 'max_pages')}>
      </div>
      <div class="field">
        <label for="max_depth">Most clicks deep</label>
        <p class="hint" id="max_depth-hint">Clicks from the start page: 0 to ${maxDepthLimit}.</p>
        ${fieldError(errors, 'max_depth')}
        <input id="max_depth" name="max_depth" type="number" inputmode="numeric" required min="0" max="${maxDepthLimit}" step="1" value="${values.max_depth}"${describedBy(errors, 'max_depth')}>
      </div>
    </div>
    <div class="field field--check">
      <input id="sitemap" name="sitemap" type="checkbox" value="1"${values.sitemap ? html` checked` : ''}${describedBy(errors, 'sitemap')}>
      <label for="sitemap">Also crawl the URLs in the site's sitemaps</label>
      <p class="hint" id="sitemap-hint">Finds pages no link leads to, and checks the sitemap's entries.</p>
      ${fieldError(errors, 'sitemap')}
    </div>
    ${renderingAvailable ? renderField(values.render, errors) : ''}
    <fieldset class="field">
      <legend>Who can see the reports of its pages</legend>
      ${fieldError(errors, 'privacy')}
      ${privacyChoices([0, 1], values.privacy)}
    </fieldset>
    ${crawlSettingsFields(values, errors, renderingAvailable)}
    <div class="form-actions">
      <button type="submit" class="button button--primary">Start the crawl</button>
    </div>
  </form>
</section>`,
  });
}
