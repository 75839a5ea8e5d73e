// Report schedules (`schedule` in docs/api.md): `off`, `daily`, `weekly`, `monthly`, or a 5-field cron
// expression in UTC, read by croner. daily, weekly and monthly keep the phase of the moment they were
// set (a report scheduled at 14:07 runs at 14:07), which spreads scheduled work over the day instead
// of starting every report at midnight.
import { Cron } from 'croner';
import { ValidationError } from './errors.ts';

const INTERVALS = ['daily', 'weekly', 'monthly'] as const;
type Interval = (typeof INTERVALS)[number];

/** How far ahead the shortest gap of a cron expression is looked for: a year, or this many runs. */
const GAP_SEARCH_RUNS = 2_000;
const MINUTE_MS = 60_000;

function isInterval(schedule: string): schedule is Interval {
  return (INTERVALS as readonly string[]).includes(schedule);
}

function cronOf(expression: string): Cron {
  return new Cron(expression, { timezone: 'UTC', paused: true });
}

/** `schedule` as stored (lower-case names, one space between cron fields), or a 422 on schedule saying why. */
export function parseSchedule(input: string, minMinutes: number): string {
  const trimmed = input.trim().replace(/\s+/g, ' ');
  const named = trimmed.toLowerCase();
  if (named === 'off' || isInterval(named)) return named;
  const fields = trimmed.split(' ');
  if (fields.length !== 5) {
    throw new ValidationError(
      'schedule',
      'The schedule must be off, daily, weekly, monthly, or a cron expression of 5 fields (minute hour day-of-month month day-of-week, in UTC).',
    );
  }
  let cron: Cron;
  try {
    cron = cronOf(trimmed);
  } catch (error) {
    throw new ValidationError('schedule', `The cron expression is not valid: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const gap = shortestGapMinutes(cron);
  if (gap === null) throw new ValidationError('schedule', 'The cron expression never runs.');
  if (gap < minMinutes) {
    throw new ValidationError('schedule', `The schedule must not run more often than every ${minMinutes} minutes; this one runs ${gap} minutes apart.`);
  }
  return trimmed;
}

/** The shortest time between two runs over the coming year; null when it never runs. */
function shortestGapMinutes(cron: Cron): number | null {
  const start = new Date(Date.UTC(2026, 0, 1));
  const runs = cron.nextRuns(GAP_SEARCH_RUNS, start);
  if (runs.length === 0) return null;
  let shortest = Infinity;
  for (let index = 1; index < runs.length; index += 1) {
    shortest = Math.min(shortest, (runs[index].getTime() - runs[index - 1].getTime()) / MINUTE_MS);
  }
  // Runs once a year at most within the search: far apart.
  return shortest === Infinity ? 365 * 24 * 60 : shortest;
}

function addInterval(at: Date, interval: Interval): Date {
  const next = new Date(at);
  if (interval === 'daily') next.setUTCDate(next.getUTCDate() + 1);
  else if (interval === 'weekly') next.setUTCDate(next.getUTCDate() + 7);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * When a schedule runs next after `now`. `slot` is the run that was due (for daily, weekly and
 * monthly the phase to keep); a schedule set just now has none, and runs one interval from now.
 * Missed slots are skipped: a schedule due long ago runs once, then at its next slot after now.
 */
export function nextRunAt(schedule: string, now: Date, slot?: Date): Date | null {
  if (schedule === 'off') return null;
  if (isInterval(schedule)) {
    let next = addInterval(slot ?? now, schedule);
    while (next.getTime() <= now.getTime()) next = addInterval(next, schedule);
    return next;
  }
  return cronOf(schedule).nextRun(now);
}
