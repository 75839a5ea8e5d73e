// The lab metrics from what the page's observer recorded (lab-observer.ts), as docs/lab.md defines
// them. Pure: the browser side hands over the raw entries, this file judges them.
//
// Why not the web-vitals package: it drops layout shifts flagged `hadRecentInput`, and Chromium flags
// those of the 500 ms after the emulation's own viewport change at the document's commit, so a page
// that moves its content just after load would score 0; and it reports when the page is hidden, where
// a lab audit ends at a quiet window. The definitions below are web-vitals' and Lighthouse's otherwise.
import type { LabElement, LabLayoutShift, LabLongTask, LabMetrics } from './lab-types.ts';

/** A `layout-shift` entry: when, how much, whether Chromium flagged it as following input, its first source's selector. */
export interface RawShift {
  start: number;
  value: number;
  hadRecentInput: boolean;
  /** null when the shift named no element, or its element is gone (or was never kept: not among the 5 largest) */
  selector: string | null;
}

/** A `longtask` entry (a main-thread task over 50 ms). */
export interface RawTask {
  start: number;
  duration: number;
}

/** What the observer recorded, read at the end of the observation; times in ms from the navigation's start. */
export interface RawObservation {
  /** the page's clock when it was read, and its origin (ms since the epoch: performance.timeOrigin) */
  now: number;
  timeOrigin: number;
  /** the final document's navigation timing; null before it came */
  responseStart: number | null;
  loadEventStart: number | null;
  /** the `first-contentful-paint` entry */
  fcp: number | null;
  /** the last `largest-contentful-paint` candidate and its element (null when gone) */
  lcp: { time: number; element: LabElement | null } | null;
  shifts: RawShift[];
  tasks: RawTask[];
}

/** The metrics and the findings behind them. */
export interface LabFindings {
  metrics: LabMetrics;
  lcp_element: LabElement | null;
  layout_shifts: LabLayoutShift[];
  long_tasks: LabLongTask[];
}

/** Shifts of one session window are less than this apart... */
const SESSION_GAP_MS = 1_000;
/** ...and the window lasts at most this long. */
const SESSION_MAX_MS = 5_000;
/** A task blocks input for whatever it runs past this. */
const BLOCKING_MS = 50;
/** Shifts and tasks listed: the largest, the longest. */
const LISTED = 5;
/** What the observer keeps of each kind (lab-observer.ts); anything past it is not the page's measurement. */
export const MAX_ENTRIES = 10_000;
/** A selector past this length is not one a person reads; the element is reported without one. */
const MAX_SELECTOR_CHARS = 2_000;
/** The start tag as the report shows it. */
export const MAX_SNIPPET_CHARS = 200;

const roundCls = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Cumulative layout shift: the largest session window's sum. Every shift counts, whatever its
 * `hadRecentInput` (a lab audit makes no input; see above). Unrounded.
 */
export function cumulativeLayoutShift(shifts: readonly RawShift[]): number {
  let largest = 0;
  let windowSum = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const shift of [...shifts].sort((a, b) => a.start - b.start)) {
    if (shift.start - previous < SESSION_GAP_MS && shift.start - windowStart < SESSION_MAX_MS) {
      windowSum += shift.value;
    } else {
      windowSum = shift.value;
      windowStart = shift.start;
    }
    previous = shift.start;
    largest = Math.max(largest, windowSum);
  }
  return largest;
}

/**
 * Total blocking time: for every task over 50 ms, its part between FCP and the observation's end, less
 * 50 ms, summed (Lighthouse's clipping, with the observation's end where Lighthouse has TTI). Unrounded;
 * null without an FCP.
 */
export function totalBlockingTime(tasks: readonly RawTask[], fcp: number | null, endMs: number): number | null {
  if (fcp === null) return null;
  let total = 0;
  for (const task of tasks) {
    if (task.duration <= BLOCKING_MS) continue;
    const clipped = Math.min(task.start + task.duration, endMs) - Math.max(task.start, fcp);
    if (clipped > BLOCKING_MS) total += clipped - BLOCKING_MS;
  }
  return total;
}

/** The 5 largest shifts, largest first (the earlier of two equal ones first). */
export function largestShifts(shifts: readonly RawShift[]): LabLayoutShift[] {
  return [...shifts]
    .sort((a, b) => b.value - a.value || a.start - b.start)
    .slice(0, LISTED)
    .map((shift) => ({ value: roundCls(shift.value), selector: shift.selector }));
}

/** The 5 longest tasks over 50 ms, longest first (the earlier of two equal ones first). */
export function longestTasks(tasks: readonly RawTask[]): LabLongTask[] {
  return tasks
    .filter((task) => task.duration > BLOCKING_MS)
    .sort((a, b) => b.duration - a.duration || a.start - b.start)
    .slice(0, LISTED)
    .map((task) => ({ start_ms: Math.round(task.start), duration_ms: Math.round(task.duration) }));
}

/**
 * The findings of an observation that ended at `endMs` (the page's clock): what came after it is left
 * out, times are rounded to integer milliseconds and CLS to 3 decimals.
 */
export function labFindings(raw: RawObservation, endMs: number): LabFindings {
  const within = (time: number | null) => (time !== null && time <= endMs ? time : null);
  const shifts = raw.shifts.filter((shift) => shift.start <= endMs);
  const tasks = raw.tasks.filter((task) => task.start <= endMs);
  const fcp = within(raw.fcp);
  const lcp = raw.lcp !== null && within(raw.lcp.time) !== null ? raw.lcp : null;
  const tbt = totalBlockingTime(tasks, fcp, endMs);
  const rounded = (time: number | null) => (time === null ? null : Math.round(time));
  return {
    metrics: {
      ttfb_ms: rounded(within(raw.responseStart)),
      fcp_ms: rounded(fcp),
      lcp_ms: rounded(lcp?.time ?? null),
      cls: roundCls(cumulativeLayoutShift(shifts)),
      tbt_ms: rounded(tbt),
      load_ms: rounded(within(raw.loadEventStart)),
    },
    lcp_element: lcp?.element ?? null,
    layout_shifts: largestShifts(shifts),
    long_tasks: longestTasks(tasks),
  };
}

// What the page hands over is the page's to tamper with (its scripts share the observer's world): it
// is read as untrusted data, and anything not of the expected shape is left out.

/** A time or amount the page measured: finite and not negative; else null. */
function measure(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Navigation timing says 0 for what has not happened yet. */
const happened = (value: unknown): number | null => {
  const time = measure(value);
  return time === null || time === 0 ? null : time;
};

function selector(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value.length <= MAX_SELECTOR_CHARS ? value : null;
}

function element(value: unknown): LabElement | null {
  if (typeof value !== 'object' || value === null) return null;
  const { selector: found, snippet } = value as Record<string, unknown>;
  const css = selector(found);
  return css !== null && typeof snippet === 'string' ? { selector: css, snippet: snippet.slice(0, MAX_SNIPPET_CHARS) } : null;
}

function entries<T>(value: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(value)) return [];
  const kept: T[] = [];
  for (const item of value.slice(0, MAX_ENTRIES)) {
    const entry = typeof item === 'object' && item !== null ? read(item as Record<string, unknown>) : null;
    if (entry !== null) kept.push(entry);
  }
  return kept;
}

/** The observer's record as the page returned it, or null when there is none (the page never had the observer). */
export function readObservation(value: unknown): RawObservation | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  const now = measure(raw.now);
  const timeOrigin = measure(raw.timeOrigin);
  if (now === null || timeOrigin === null) return null;
  const lcp = typeof raw.lcp === 'object' && raw.lcp !== null ? (raw.lcp as Record<string, unknown>) : null;
  const lcpTime = lcp ? measure(lcp.time) : null;
  return {
    now,
    timeOrigin,
    responseStart: happened(raw.responseStart),
    loadEventStart: happened(raw.loadEventStart),
    fcp: happened(raw.fcp),
    lcp: lcp && lcpTime !== null ? { time: lcpTime, element: element(lcp.element) } : null,
    shifts: entries(raw.shifts, (shift) => {
      const start = measure(shift.start);
      const amount = measure(shift.value);
      return start === null || amount === null ? null : { start, value: amount, hadRecentInput: shift.hadRecentInput === true, selector: selector(shift.selector) };
    }),
    tasks: entries(raw.tasks, (task) => {
      const start = measure(task.start);
      const duration = measure(task.duration);
      return start === null || duration === null ? null : { start, duration };
    }),
  };
}
