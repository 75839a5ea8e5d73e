// The schedule of a report on its manage page: off, daily, weekly, monthly, or a cron expression
// (UTC), as the API takes it (`schedule` in docs/api.md), with when it runs next.
import type { ReportSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, fieldError, type FieldErrors } from './form-parts.ts';
import { timeElement } from './format.ts';
import { selectOption } from './list-controls.ts';

const NAMED = ['off', 'daily', 'weekly', 'monthly'] as const;
const CHOICES: readonly [string, string][] = [
  ['off', 'Off'],
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['monthly', 'Monthly'],
  ['cron', 'Custom (cron expression)'],
];

/** What the form shows: the select's choice and the cron field's text. */
interface ScheduleChoice {
  selected: string;
  cron: string;
}

function scheduleChoice(schedule: string): ScheduleChoice {
  return (NAMED as readonly string[]).includes(schedule) ? { selected: schedule, cron: '' } : { selected: 'cron', cron: schedule };
}

/** The schedule as a list shows it: a word, the cron expression, or a dash for none. */
export function scheduleText(schedule: string): SafeHtml {
  if (schedule === 'off') return html`<span aria-hidden="true">—</span><span class="visually-hidden">not scheduled</span>`;
  if ((NAMED as readonly string[]).includes(schedule)) return html`${schedule}`;
  return html`<code class="schedule-cron">${schedule}</code>`;
}

export interface ScheduleFormOptions {
  report: Pick<ReportSummary, 'id' | 'schedule' | 'next_run_at'>;
  csrfToken: string;
  /** After a refused change: what was sent, and why it was refused. */
  refused?: ScheduleChoice & { errors: FieldErrors };
}

export function scheduleForm({ report, csrfToken, refused }: ScheduleFormOptions): SafeHtml {
  const choice = refused ?? scheduleChoice(report.schedule);
  const errors = refused?.errors ?? {};
  const invalid = errors.schedule?.length ? html` aria-invalid="true" aria-describedby="schedule-error"` : '';
  const cronInvalid = choice.selected === 'cron';
  return html`<section class="panel" aria-labelledby="schedule-heading">
  <h2 id="schedule-heading">Schedule</h2>
  <p>Analyse the page again on a schedule; each analysis is kept as a run. Times are UTC.
    ${report.next_run_at === null ? 'Not scheduled.' : html`Next run: ${timeElement(report.next_run_at)}.`}</p>
  <form method="post" action="/dashboard/reports/${report.id}/schedule" class="form">
    ${csrfField(csrfToken)}
    ${fieldError(errors, 'schedule')}
    <div class="field">
      <label for="schedule">Repeat</label>
      <select id="schedule" name="schedule"${cronInvalid ? '' : invalid}>${CHOICES.map(([value, label]) => selectOption(value, label, value === choice.selected))}</select>
    </div>
    <div class="field">
      <label for="schedule-cron">Cron expression</label>
      <p class="hint" id="schedule-cron-hint">Only for Custom: 5 fields (minute hour day-of-month month day-of-week), e.g. <code>0 6 * * 1</code> for Mondays at 06:00.</p>
      <input id="schedule-cron" name="cron" type="text" maxlength="200" spellcheck="false" autocomplete="off" value="${choice.cron}"${cronInvalid && errors.schedule?.length
        ? html` aria-invalid="true" aria-describedby="schedule-cron-hint schedule-error"`
        : html` aria-describedby="schedule-cron-hint"`}>
    </div>
    <div class="form-actions"><button type="submit" class="button button--primary">Save schedule</button></div>
  </form>
</section>`;
}
