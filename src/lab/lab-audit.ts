// One lab audit in a fresh guarded context (docs/lab.md, "How a lab audit measures a page"): the
// page loaded cold under the profile's screen, CPU and network, observed until the load event and
// then a quiet second (or the deadline), its entries judged (lab-metrics.ts) and its requests counted
// (lab-network.ts); then, with the throttling lifted, the accessibility engine on the DOM as loaded.
//
// Not the web-vitals package: it drops the layout shifts Chromium flags `hadRecentInput` (it flags those
// of the 500 ms after the emulation's own viewport change), so a page that moves its content just after
// load would score 0, and it reports when the page is hidden, where a lab audit ends at a quiet window.
// The observer (lab-observer.ts) records every entry and the metrics are computed here.
import type { Page } from 'playwright-core';
import { REFUSED_HEADER } from '../render/guarded-proxy.ts';
import type { GuardedContext } from '../render/render-page.ts';
import { labFindings, readObservation } from './lab-metrics.ts';
import { createNetworkTally } from './lab-network.ts';
import { COLLECT_SCRIPT, OBSERVER_SCRIPT, QUIET_PROBE_SCRIPT } from './lab-observer.ts';
import { LAB_PROFILE, UNTHROTTLED_NETWORK, type LabProfile } from './lab-profiles.ts';
import { watchTargets, type Command } from './lab-targets.ts';
import type { AccessibilityRun, LabAudit, LabProfileName } from './lab-types.ts';

export interface LabAuditOptions {
  profile: LabProfileName;
  /** PAGEGRADE_LAB_TIMEOUT_MS: the longest the page is observed, from the navigation's start. */
  timeoutMs: number;
  /** The accessibility engine on the loaded page (lab/accessibility.ts), bounded by its own deadline. */
  runAccessibility(page: Page): Promise<AccessibilityRun>;
}

/** Lighthouse's quiet window: this long with no request in flight and no main-thread task over 50 ms. */
const QUIET_MS = 1_000;
/** While requests are in flight, the quiet window is looked at this often. */
const PROBE_MS = 100;
/** The page's own record is read once observing is over; a main thread that does not answer this fast never returns. */
const COLLECT_MS = 5_000;
/** The accessibility engine's own deadline, after the observation. */
export const ACCESSIBILITY_MS = 20_000;
/** Beyond the observation and the accessibility run: the context made, the record read, the throttling lifted. */
const SLACK_MS = COLLECT_MS + 5_000;

/** The deadline of a lab audit's browser context: the observation, the accessibility run and the rest. */
export function labContextMs(timeoutMs: number): number {
  return timeoutMs + ACCESSIBILITY_MS + SLACK_MS;
}

const LEAD = 'The lab audit could not load the page:';

/** Why the audit could not observe the page, as the report says it. */
class Unobservable extends Error {
  override name = 'Unobservable';
}

/** The settings every target of the page gets before the navigation: the profile's network and CPU. */
function throttling(profile: LabProfile): Command[] {
  return [
    ['Network.emulateNetworkConditions', profile.network],
    ['Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown }],
  ];
}

const UNTHROTTLED: Command[] = [
  ['Network.emulateNetworkConditions', UNTHROTTLED_NETWORK],
  ['Emulation.setCPUThrottlingRate', { rate: 1 }],
];

/**
 * Loads `url` in a page of the guarded context (its viewport, scale, touch and user agent the
 * profile's: the context is made with them, render/render-page.ts) and measures it. Never throws: a
 * page that cannot be observed at all is `{ ok: false, reason }`.
 */
export async function auditIn({ context, proxy }: GuardedContext, url: string, options: LabAuditOptions): Promise<LabAudit> {
  const profile = LAB_PROFILE[options.profile];
  try {
    await context.addInitScript(OBSERVER_SCRIPT);
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const network = createNetworkTally();
    /** When the last request in flight ended (this process's clock). */
    let networkQuietSince = performance.now();
    let lifted = false;
    const targets = watchTargets(session, () => (lifted ? UNTHROTTLED : throttling(profile)), (method, params) => {
      const before = network.inFlight();
      network.handle(method, params);
      if (before > 0 && network.inFlight() === 0) networkQuietSince = performance.now();
    });
    await targets.ready;

    let refused: string | null = null;
    page.on('response', (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() === page.mainFrame() && response.headers()[REFUSED_HEADER] !== undefined) {
        refused = proxy.refusals.at(-1) ?? 'the page leads to an address pagegrade does not load.';
      }
    });

    const startedAt = Date.now();
    const deadline = performance.now() + options.timeoutMs;
    const loaded = await navigate(page, url, options.timeoutMs);
    if (refused !== null) throw new Unobservable(refused);
    if (loaded) await quietWindow(page, deadline, () => (network.inFlight() === 0 ? networkQuietSince : null));

    const collected = await withinOrNull(page.evaluate(COLLECT_SCRIPT), COLLECT_MS, 'unanswered');
    const resources = network.resources();
    if (collected === 'unanswered') throw new Unobservable(`its main thread did not return within ${COLLECT_MS} ms of the observation's end.`);
    const raw = readObservation(collected);
    if (raw === null || raw.responseStart === null) throw new Unobservable(`it did not answer within ${options.timeoutMs} ms.`);
    // Its own clock: a page that sent itself elsewhere started its clock later than the navigation.
    const endMs = Math.min(raw.now, startedAt + options.timeoutMs - raw.timeOrigin);

    lifted = true;
    await targets.broadcast(UNTHROTTLED);
    const accessibility = await options.runAccessibility(page).catch(
      (error: unknown): AccessibilityRun => ({ ok: false, reason: `The accessibility engine could not run on the page: ${firstLine(error)}` }),
    );
    return { ok: true, measurement: { profile: profile.name, ...labFindings(raw, endMs), resources, accessibility } };
  } catch (error) {
    return { ok: false, reason: `${LEAD} ${error instanceof Unobservable ? error.message : browserReason(error, proxy.refusals.at(-1))}` };
  }
}

/** Navigates and waits for the load event; false when the deadline came first (the page is measured as it was). */
async function navigate(page: Page, url: string, timeoutMs: number): Promise<boolean> {
  try {
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return false;
    throw error;
  }
}

/**
 * Waits until QUIET_MS pass with no request in flight and no long task, or the deadline. The network's
 * half is known here as its events come (`networkQuietSince`: null while a request is in flight); the
 * main thread's only in the page, which answers the probe once its current task is done.
 */
async function quietWindow(page: Page, deadline: number, networkQuietSince: () => number | null): Promise<void> {
  const loadedAt = performance.now();
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    const probe = await withinOrNull(page.evaluate(QUIET_PROBE_SCRIPT) as Promise<{ now: number; lastTaskEnd: number }>, left, 'deadline').catch(() => null);
    if (probe === 'deadline') return;
    const now = performance.now();
    const network = networkQuietSince();
    let wait = PROBE_MS;
    if (probe !== null && network !== null) {
      const tasksQuietSince = now - Math.max(0, probe.now - probe.lastTaskEnd);
      const quietFor = now - Math.max(loadedAt, network, tasksQuietSince);
      if (quietFor >= QUIET_MS) return;
      // Looked at again when the window would be complete: what happens meanwhile shows then.
      wait = QUIET_MS - quietFor;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - performance.now()))));
  }
}

/** The promise's value, or `late` when it takes longer than `ms` (its rejection is then ignored). */
async function withinOrNull<T, L extends string>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => {});
  try {
    return await Promise.race([promise, new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reason for people from what playwright threw. */
function browserReason(error: unknown, refusal: string | undefined): string {
  const message = firstLine(error);
  // A refused HTTPS document fails the navigation itself (the tunnel was refused).
  if (refusal && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED/.test(message)) return refusal;
  if (/Target (page, context or browser )?(has been )?closed|Browser has been closed/i.test(message)) return 'the browser closed while loading it.';
  return message.replace(/^[a-zA-Z.]+: /, '');
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
