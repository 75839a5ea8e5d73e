import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import { nextRunAt, parseSchedule } from './schedule.ts';

function refusal(input: string, minMinutes = 60): string {
  try {
    parseSchedule(input, minMinutes);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('schedule');
    return (error as Error).message;
  }
  throw new Error(`${input} was accepted`);
}

describe('reading a schedule', () => {
  it('takes the names in any case and a 5-field cron expression, stored tidy', () => {
    expect(parseSchedule('OFF', 60)).toBe('off');
    expect(parseSchedule(' Weekly ', 60)).toBe('weekly');
    expect(parseSchedule('0   */2 * * 1-5', 60)).toBe('0 */2 * * 1-5');
  });

  it('refuses anything else, saying what it takes', () => {
    expect(refusal('hourly')).toMatch(/off, daily, weekly, monthly, or a cron expression of 5 fields/);
    expect(refusal('0 0 0 * * *')).toMatch(/5 fields/);
    expect(refusal('61 * * * *')).toMatch(/^The cron expression is not valid: .*minute/);
    expect(refusal('0 0 30 2 *')).toBe('The cron expression never runs.');
  });

  it('refuses a cron expression that runs more often than the minimum, which itself is allowed', () => {
    expect(refusal('*/30 * * * *')).toBe('The schedule must not run more often than every 60 minutes; this one runs 30 minutes apart.');
    // Once a day two runs a minute apart: the shortest gap counts.
    expect(refusal('0,1 3 * * *')).toMatch(/runs 1 minutes apart/);
    expect(parseSchedule('0 * * * *', 60)).toBe('0 * * * *');
    expect(parseSchedule('* * * * *', 1)).toBe('* * * * *');
  });
});

describe('when a schedule runs next', () => {
  const at = (iso: string) => new Date(iso);

  it('is never when off', () => {
    expect(nextRunAt('off', at('2026-11-27T10:00:00Z'))).toBeNull();
  });

  it('is one interval from now when set, and keeps the phase of its slot after that', () => {
    expect(nextRunAt('daily', at('2026-11-27T14:07:30Z'))).toEqual(at('2026-11-28T14:07:30Z'));
    expect(nextRunAt('daily', at('2026-11-28T14:07:33Z'), at('2026-11-28T14:07:30Z'))).toEqual(at('2026-11-29T14:07:30Z'));
    expect(nextRunAt('weekly', at('2026-11-27T09:00:00Z'))).toEqual(at('2026-12-04T09:00:00Z'));
    expect(nextRunAt('monthly', at('2026-11-27T09:00:00Z'))).toEqual(at('2026-12-27T09:00:00Z'));
  });

  it('skips the slots missed while nothing ran: the next is the first after now', () => {
    expect(nextRunAt('daily', at('2026-12-05T12:00:00Z'), at('2026-11-28T14:07:30Z'))).toEqual(at('2026-12-05T14:07:30Z'));
    expect(nextRunAt('daily', at('2026-12-05T15:00:00Z'), at('2026-11-28T14:07:30Z'))).toEqual(at('2026-12-06T14:07:30Z'));
    expect(nextRunAt('0 6 * * *', at('2026-12-05T12:00:00Z'))).toEqual(at('2026-12-06T06:00:00Z'));
  });

  it('follows a cron expression in UTC', () => {
    expect(nextRunAt('30 9 * * 1', at('2026-11-27T10:00:00Z'))).toEqual(at('2026-11-30T09:30:00Z'));
  });
});
