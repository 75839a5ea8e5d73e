// The new-crawl form's further settings (docs/crawls.md): links to other sites, scope, query
// parameters to ignore, the user agent, request headers for a staging site, a list of URLs instead of
// following links, a schedule, and lab audits of some of its pages (docs/lab.md, offered when the
// server has a browser). Folded away by default: a crawl needs none of them. Header values typed are
// never shown back (they may be a password): after an error the field comes back empty.
import { CRAWL_USER_AGENTS } from '../../db/tables/crawl.table.ts';
import { CRAWL_LAB_LIMITS } from '../../crawl/crawl-lab-limits.ts';
import { LAB_PROFILES, type LabProfileName } from '../../lab/lab-types.ts';
import { html, type SafeHtml } from '../html.ts';
import { fieldError, type FieldErrors } from './form-parts.ts';
import { selectOption } from './list-controls.ts';

export interface CrawlFormSettings {
  external: boolean;
  include: string;
  exclude: string;
  strip_params: string;
  user_agent: string;
  urls: string;
  schedule: string;
  lab: boolean;
  /** As typed, so an invalid number comes back as it was sent. */
  lab_pages: string;
  lab_profile: string;
}

export const DEFAULT_CRAWL_FORM_SETTINGS: CrawlFormSettings = {
  external: true, include: '', exclude: '', strip_params: '', user_agent: 'default', urls: '', schedule: 'off',
  lab: false, lab_pages: String(CRAWL_LAB_LIMITS.defaultPages), lab_profile: 'mobile',
};

/** The fields the settings part shows errors beside (the lab's even without a browser: its error says there is none). */
export const CRAWL_SETTING_FIELDS = ['external', 'include', 'exclude', 'strip_params', 'user_agent', 'headers', 'urls', 'schedule', 'lab', 'lab_pages', 'lab_profile'] as const;

const LAB_PROFILE_LABELS: Record<LabProfileName, string> = { mobile: 'Mobile (a phone on slow 4G)', desktop: 'Desktop' };

const USER_AGENT_LABELS: Record<(typeof CRAWL_USER_AGENTS)[number], string> = {
  default: 'pagegrade (the server\'s own)',
  desktop: 'Desktop Chrome',
  mobile: 'Mobile Chrome',
  googlebot_smartphone: 'Googlebot smartphone',
  googlebot_desktop: 'Googlebot desktop',
};

function described(errors: FieldErrors, field: string): SafeHtml {
  const invalid = Boolean(errors[field]?.length);
  return html` aria-describedby="${field}-hint${invalid ? ` ${field}-error` : ''}"${invalid ? html` aria-invalid="true"` : ''}`;
}

function textArea(field: string, label: string, hint: SafeHtml | string, value: string, errors: FieldErrors, rows = 3): SafeHtml {
  return html`<div class="field">
      <label for="${field}">${label}</label>
      <p class="hint" id="${field}-hint">${hint}</p>
      ${fieldError(errors, field)}
      <textarea id="${field}" name="${field}" rows="${rows}" spellcheck="false" autocomplete="off"${described(errors, field)}>${value}</textarea>
    </div>`;
}

/**
 * Lab audits of some of the crawl's pages: the checkbox, how many pages and the profile. Without a
 * browser only an error on them shows (a form sent by hand); the fields are not offered.
 */
function labFields(values: CrawlFormSettings, errors: FieldErrors, labAvailable: boolean): SafeHtml {
  if (!labAvailable) return html`${fieldError(errors, 'lab')}${fieldError(errors, 'lab_pages')}${fieldError(errors, 'lab_profile')}`;
  const { minPages, maxPages } = CRAWL_LAB_LIMITS;
  return html`<fieldset class="field crawl-lab-fields">
      <legend>Lab audits</legend>
      <div class="field field--check">
        <input id="lab" name="lab" type="checkbox" value="1"${values.lab ? html` checked` : ''}${described(errors, 'lab')}>
        <label for="lab">Also measure Core Web Vitals and accessibility in a browser</label>
        <p class="hint" id="lab-hint">Once every page is in, a few of them, picked to cover the site's kinds of URL (<code>/product/{n}</code>, <code>/blog/{n}/…</code>), are loaded cold in headless Chromium as Lighthouse loads them. One at a time: a few seconds each.</p>
        ${fieldError(errors, 'lab')}
      </div>
      <div class="field-row">
        <div class="field">
          <label for="lab_pages">Pages to audit</label>
          <p class="hint" id="lab_pages-hint">At most ${minPages} to ${maxPages} pages.</p>
          ${fieldError(errors, 'lab_pages')}
          <input id="lab_pages" name="lab_pages" type="number" inputmode="numeric" min="${minPages}" max="${maxPages}" step="1" value="${values.lab_pages}"${described(errors, 'lab_pages')}>
        </div>
        <div class="field">
          <label for="lab_profile">Device</label>
          <p class="hint" id="lab_profile-hint">The screen, CPU and network the pages are loaded under.</p>
          ${fieldError(errors, 'lab_profile')}
          <select id="lab_profile" name="lab_profile"${described(errors, 'lab_profile')}>${LAB_PROFILES.map((value) => selectOption(value, LAB_PROFILE_LABELS[value], value === values.lab_profile))}</select>
        </div>
      </div>
    </fieldset>`;
}

/** `labAvailable`: the server has a browser, so lab audits are offered. */
export function crawlSettingsFields(values: CrawlFormSettings, errors: FieldErrors, labAvailable = false): SafeHtml {
  const open = CRAWL_SETTING_FIELDS.some((field) => errors[field]?.length) || values.urls !== '' || values.include !== '' || values.exclude !== '' || values.lab;
  return html`<details class="form-more"${open ? html` open` : ''}>
    <summary>More settings: scope, user agent, a staging site's headers, a list of URLs, a schedule${labAvailable ? ', lab audits' : ''}</summary>
    <div class="field field--check">
      <input id="external" name="external" type="checkbox" value="1"${values.external ? html` checked` : ''}${described(errors, 'external')}>
      <label for="external">Check links to other sites</label>
      <p class="hint" id="external-hint">Each external URL the pages link to is asked for once (HEAD, then GET) and the broken ones are reported.</p>
      ${fieldError(errors, 'external')}
    </div>
    ${textArea('include', 'Only URLs matching', html`Path patterns, one a line: <code>*</code> matches within a path segment, <code>**</code> across segments, e.g. <code>/blog/**</code>. Empty: every URL.`, values.include, errors)}
    ${textArea('exclude', 'Never URLs matching', html`Path patterns, one a line, e.g. <code>/cart/**</code> or <code>/**?sort=*</code>.`, values.exclude, errors)}
    <div class="field">
      <label for="strip_params">Query parameters to ignore</label>
      <p class="hint" id="strip_params-hint">Removed from every URL before it is compared and fetched, separated by commas; <code>utm_*</code> matches every utm_ parameter.</p>
      ${fieldError(errors, 'strip_params')}
      <input id="strip_params" name="strip_params" type="text" maxlength="6000" spellcheck="false" autocomplete="off" value="${values.strip_params}"${described(errors, 'strip_params')}>
    </div>
    <div class="field">
      <label for="user_agent">User agent</label>
      <p class="hint" id="user_agent-hint">What the crawl says it is, and the robots.txt group it obeys (Googlebot's for the Googlebot ones).</p>
      ${fieldError(errors, 'user_agent')}
      <select id="user_agent" name="user_agent"${described(errors, 'user_agent')}>${CRAWL_USER_AGENTS.map((value) => selectOption(value, USER_AGENT_LABELS[value], value === values.user_agent))}</select>
    </div>
    ${textArea('headers', 'Request headers', html`For a staging site: <code>Name: value</code> lines, e.g. <code>Cookie: session=…</code> or <code>Authorization: Basic …</code>. Sent to the crawled host only, stored encrypted, shown by name only.`, '', errors)}
    ${textArea('urls', 'Audit exactly these URLs', 'One URL a line, instead of following links from the start URL (which may then stay empty). Their links are still checked.', values.urls, errors, 4)}
    <div class="field">
      <label for="schedule">Repeat</label>
      <p class="hint" id="schedule-hint"><code>off</code>, <code>daily</code>, <code>weekly</code>, <code>monthly</code> or a cron expression (UTC, 5 fields): each run is a new crawl with these settings, compared with the one before.</p>
      ${fieldError(errors, 'schedule')}
      <input id="schedule" name="schedule" type="text" list="schedule-choices" maxlength="200" spellcheck="false" autocomplete="off" value="${values.schedule}"${described(errors, 'schedule')}>
      <datalist id="schedule-choices"><option value="off"></option><option value="daily"></option><option value="weekly"></option><option value="monthly"></option></datalist>
    </div>
    ${labFields(values, errors, labAvailable)}
  </details>`;
}
