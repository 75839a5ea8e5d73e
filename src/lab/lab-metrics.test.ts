import { describe, expect, it } from 'vitest';
import {
  cumulativeLayoutShift,
  labFindings,
  largestShifts,
  longestTasks,
  MAX_ENTRIES,
  readObservation,
  totalBlockingTime,
  type RawObservation,
  type RawShift,
} from './lab-metrics.ts';

const shift = (start: number, value: number, extra: Partial<RawShift> = {}): RawShift => ({ start, value, hadRecentInput: false, selector: null, ...extra });
const task = (start: number, duration: number) => ({ start, duration });

const observation = (extra: Partial<RawObservation> = {}): RawObservation => ({
  now: 5_000,
  timeOrigin: 1_700_000_000_000,
  responseStart: 12.4,
  loadEventStart: 900.6,
  fcp: 300.2,
  lcp: { time: 1_200.5, element: { selector: 'img#hero', snippet: '<img id="hero">' } },
  shifts: [],
  tasks: [],
  ...extra,
});

describe('cumulativeLayoutShift', () => {
  it('is 0 when nothing shifted', () => {
    expect(cumulativeLayoutShift([])).toBe(0);
  });

  it('sums shifts less than 1 s apart into one window', () => {
    expect(cumulativeLayoutShift([shift(100, 0.05), shift(1_099, 0.05), shift(2_000, 0.05)])).toBeCloseTo(0.15);
  });

  it('starts a new window after a gap of 1 s or more, and takes the largest window', () => {
    // 0.05 + 0.05, then 1 s of nothing, then 0.08 alone: the first window is the larger.
    expect(cumulativeLayoutShift([shift(0, 0.05), shift(500, 0.05), shift(1_500, 0.08)])).toBeCloseTo(0.1);
    expect(cumulativeLayoutShift([shift(0, 0.05), shift(1_000, 0.05)])).toBeCloseTo(0.05);
  });

  it('closes a window 5 s after its first shift, however close the next one', () => {
    // Shifts every 900 ms: the window started at 0 takes those before 5,000 ms (0..4,500: 6 shifts).
    const steady = Array.from({ length: 10 }, (_, i) => shift(i * 900, 0.01));
    expect(cumulativeLayoutShift(steady)).toBeCloseTo(0.06);
  });

  it('counts shifts flagged hadRecentInput (a lab audit makes no input)', () => {
    expect(cumulativeLayoutShift([shift(100, 0.2, { hadRecentInput: true }), shift(200, 0.1)])).toBeCloseTo(0.3);
  });

  it('does not depend on the order the entries came in', () => {
    expect(cumulativeLayoutShift([shift(1_500, 0.08), shift(500, 0.05), shift(0, 0.05)])).toBeCloseTo(0.1);
  });
});

describe('totalBlockingTime', () => {
  it('is null without an FCP, 0 without long tasks', () => {
    expect(totalBlockingTime([task(0, 500)], null, 10_000)).toBeNull();
    expect(totalBlockingTime([], 100, 10_000)).toBe(0);
  });

  it('sums what each task over 50 ms runs past 50 ms', () => {
    expect(totalBlockingTime([task(1_000, 300), task(2_000, 120), task(3_000, 50)], 500, 10_000)).toBe(250 + 70);
  });

  it('counts only the part of a task after FCP, and before the observation ended', () => {
    // 200 ms of this task come after FCP at 300: 150 blocking; the other is cut at the end (9,900..10,000).
    expect(totalBlockingTime([task(100, 400), task(9_900, 500)], 300, 10_000)).toBe(150 + 50);
    // Clipped to 50 ms or less: nothing.
    expect(totalBlockingTime([task(0, 340)], 300, 10_000)).toBe(0);
    expect(totalBlockingTime([task(0, 200)], 300, 10_000)).toBe(0);
  });
});

describe('largestShifts and longestTasks', () => {
  it('lists the 5 largest shifts, largest first, rounded to 3 decimals', () => {
    const shifts = [0.01, 0.3, 0.02, 0.12345, 0.05, 0.004, 0.2].map((value, i) => shift(i * 100, value, { selector: `#s${i}` }));
    expect(largestShifts(shifts)).toEqual([
      { value: 0.3, selector: '#s1' },
      { value: 0.2, selector: '#s6' },
      { value: 0.123, selector: '#s3' },
      { value: 0.05, selector: '#s4' },
      { value: 0.02, selector: '#s2' },
    ]);
  });

  it('puts the earlier of two equal shifts first', () => {
    expect(largestShifts([shift(500, 0.1, { selector: 'later' }), shift(100, 0.1, { selector: 'earlier' })]).map((s) => s.selector)).toEqual(['earlier', 'later']);
  });

  it('lists the 5 longest tasks over 50 ms, longest first, in integer ms', () => {
    const tasks = [task(10.4, 60.6), task(100, 50), task(200, 300), task(300, 80), task(400, 90), task(500, 70), task(600, 55)];
    expect(longestTasks(tasks)).toEqual([
      { start_ms: 200, duration_ms: 300 },
      { start_ms: 400, duration_ms: 90 },
      { start_ms: 300, duration_ms: 80 },
      { start_ms: 500, duration_ms: 70 },
      { start_ms: 10, duration_ms: 61 },
    ]);
  });
});

describe('labFindings', () => {
  it('rounds times to integer ms and CLS to 3 decimals', () => {
    const findings = labFindings(observation({ shifts: [shift(950, 0.04321, { selector: 'main > p' })], tasks: [task(400, 250.4)] }), 5_000);
    expect(findings).toEqual({
      metrics: { ttfb_ms: 12, fcp_ms: 300, lcp_ms: 1201, cls: 0.043, tbt_ms: 200, load_ms: 901 },
      lcp_element: { selector: 'img#hero', snippet: '<img id="hero">' },
      layout_shifts: [{ value: 0.043, selector: 'main > p' }],
      long_tasks: [{ start_ms: 400, duration_ms: 250 }],
    });
  });

  it('leaves out what came after the observation ended: a late load is null', () => {
    const findings = labFindings(observation({ loadEventStart: 6_000, shifts: [shift(5_500, 0.5)], tasks: [task(5_200, 400)] }), 5_000);
    expect(findings.metrics).toMatchObject({ load_ms: null, cls: 0, tbt_ms: 0 });
    expect(findings.layout_shifts).toEqual([]);
    expect(findings.long_tasks).toEqual([]);
  });

  it('says null for FCP, LCP and TBT when nothing contentful was painted, and cls 0', () => {
    const findings = labFindings(observation({ fcp: null, lcp: null, tasks: [task(100, 400)] }), 5_000);
    expect(findings.metrics).toEqual({ ttfb_ms: 12, fcp_ms: null, lcp_ms: null, cls: 0, tbt_ms: null, load_ms: 901 });
    expect(findings.lcp_element).toBeNull();
  });

  it('keeps the LCP with no element when its element is gone', () => {
    expect(labFindings(observation({ lcp: { time: 800, element: null } }), 5_000)).toMatchObject({ metrics: { lcp_ms: 800 }, lcp_element: null });
  });
});

describe('readObservation', () => {
  const page = {
    now: 4_000,
    timeOrigin: 1_700_000_000_000,
    responseStart: 10,
    loadEventStart: 0,
    fcp: 200,
    lcp: { time: 300, element: { selector: 'h1', snippet: `<h1 class="${'x'.repeat(300)}">` } },
    shifts: [{ start: 500, value: 0.1, hadRecentInput: true, selector: 'p' }],
    tasks: [{ start: 100, duration: 80 }],
  };

  it('reads what the observer recorded; navigation timing 0 is "not yet"', () => {
    const raw = readObservation(page)!;
    expect(raw).toMatchObject({ now: 4_000, responseStart: 10, loadEventStart: null, fcp: 200, tasks: [{ start: 100, duration: 80 }] });
    expect(raw.shifts).toEqual([{ start: 500, value: 0.1, hadRecentInput: true, selector: 'p' }]);
    // A start tag is at most 200 characters.
    expect(raw.lcp!.element!.snippet).toHaveLength(200);
  });

  it('is null for a page that never had the observer', () => {
    expect(readObservation(null)).toBeNull();
    expect(readObservation({ now: 'soon' })).toBeNull();
  });

  it('leaves out what the page tampered with, and entries past the bound', () => {
    const raw = readObservation({
      ...page,
      fcp: -5,
      lcp: { time: 300, element: { selector: 42, snippet: '<h1>' } },
      shifts: [{ start: 'x', value: 0.1 }, { start: 1, value: Infinity }, null, { start: 2, value: 0.2, selector: 'a'.repeat(5_000) }],
      tasks: Array.from({ length: MAX_ENTRIES + 10 }, (_, i) => ({ start: i, duration: 60 })),
    })!;
    expect(raw.fcp).toBeNull();
    expect(raw.lcp).toEqual({ time: 300, element: null });
    expect(raw.shifts).toEqual([{ start: 2, value: 0.2, hadRecentInput: false, selector: null }]);
    expect(raw.tasks).toHaveLength(MAX_ENTRIES);
  });
});
