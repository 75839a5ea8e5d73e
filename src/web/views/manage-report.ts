// One report's settings for its owner: who may see it, analysing it again, deleting it.
import type { Privacy, ReportSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { shortUrl, timeElement } from './format.ts';
import { ANALYSIS_REFRESH_SECONDS, analysisInProgress, analysisNotice, scoreChip } from './analysis-state.ts';
import { PROGRESS_STEPS, csrfField, otherErrors, privacyFields, progressSubmit, type FieldErrors } from './form-parts.ts';
import { layout, type HeaderNav } from './layout.ts';
import { scheduleForm, type ScheduleFormOptions } from './schedule-form.ts';

export interface ManageReportOptions {
  nav: HeaderNav;
  csrfToken: string;
  report: ReportSummary;
  /** The absolute address of the report page, to copy and share. */
  shareUrl: string;
  /** After a refused privacy change: the choice made and why it was refused. */
  privacy?: { selected: Privacy; errors: FieldErrors };
  regenerateError?: string;
  /** After a refused schedule change. */
  schedule?: ScheduleFormOptions['refused'];
  notice?: string;
}

export function manageReportPage(options: ManageReportOptions): SafeHtml {
  const { report, csrfToken } = options;
  const privacyErrors = options.privacy?.errors ?? {};
  return layout({
    title: `Manage report #${report.id} · pagegrade`,
    description: `Settings of the SEO report for ${report.url}.`,
    nav: options.nav,
    formScript: true,
    refreshSeconds: analysisInProgress(report) ? ANALYSIS_REFRESH_SECONDS : undefined,
    main: html`<div class="page-heading">
  <div>
    <p class="eyebrow">Report #${report.id}</p>
    <h1 class="report-url">${shortUrl(report.url, 200)}</h1>
    <p class="report-meta">${scoreChip(report)}
      ${report.generated_at === null ? 'no successful analysis yet' : html`generated ${timeElement(report.generated_at)}`}</p>
  </div>
  <a class="button button--primary" href="/reports/${report.id}">View report</a>
</div>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${analysisNotice(report)}
<section class="panel" aria-labelledby="share-heading">
  <h2 id="share-heading">Share</h2>
  <div class="field">
    <label for="share-url">Link to the report</label>
    <input id="share-url" type="text" readonly value="${options.shareUrl}">
  </div>
</section>
<section class="panel" aria-labelledby="privacy-heading">
  <h2 id="privacy-heading">Privacy</h2>
  <form method="post" action="/dashboard/reports/${report.id}/privacy" class="form">
    ${csrfField(csrfToken)}
    ${otherErrors(privacyErrors, ['privacy', 'password'])}
    ${privacyFields({ selected: options.privacy?.selected ?? report.privacy, errors: privacyErrors, hasPassword: report.password })}
    <div class="form-actions"><button type="submit" class="button button--primary">Save privacy</button></div>
  </form>
</section>
${scheduleForm({ report, csrfToken, refused: options.schedule })}
<section class="panel" aria-labelledby="regenerate-heading">
  <h2 id="regenerate-heading">Analyse again</h2>
  <p>Fetch the page now and replace the results. The report keeps its number and link; if the page cannot be fetched, nothing changes.</p>
  <form method="post" action="/dashboard/reports/${report.id}/regenerate" class="form" data-progress="${PROGRESS_STEPS}">
    ${csrfField(csrfToken)}
    ${options.regenerateError ? html`<p class="form-error" role="alert">${options.regenerateError}</p>` : ''}
    ${progressSubmit('Analyse again')}
  </form>
</section>
<section class="panel panel--danger" aria-labelledby="delete-heading">
  <h2 id="delete-heading">Delete</h2>
  <p>Deleting the report removes it for good; its link stops working.</p>
  <p><a class="button button--danger" href="/dashboard/reports/${report.id}/delete">Delete this report…</a></p>
</section>`,
  });
}
