// axe-core's run on a loaded page (docs/lab.md, "What a lab audit does", step 4): its verdict on each
// accessibility rule, or why there is none. Never throws.
//
// axe-core runs in an isolated world of the page's top frame (Chromium's Page.createIsolatedWorld,
// as Lighthouse runs it): the world shares the page's DOM but none of its JavaScript, so a page that
// redefines `Promise`, `Array.prototype.map` or a global `axe`, or that already loads an axe-core of
// its own, changes nothing in the run, and the page's scripts never see axe-core.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CDPSession, Page } from 'playwright-core';
import { AXE_RULES } from './axe-rules.ts';
import { ANSWER_LIMITS, AXE_RUN_OPTIONS, AXE_RUNNER_SOURCE, toAccessibilityRun } from './axe-run.ts';
import type { AccessibilityRun } from './lab-types.ts';

const WORLD_NAME = 'pagegrade-accessibility';
/** An error's first line at most this long goes into the reason. */
const MAX_ERROR_CHARS = 300;
const RULE_IDS: readonly string[] = AXE_RULES.map((rule) => rule.id);

let axeSource: string | undefined;

/** axe-core's browser build (some 650 KB), read once a process, on the first run. */
function axeBrowserSource(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/**
 * Runs axe-core on the page as it stands, for at most `timeoutMs`. When the deadline comes first the
 * run is abandoned where it is (the caller closes the page's context after), and the outcome says so.
 */
export async function runAccessibility(page: Page, timeoutMs: number): Promise<AccessibilityRun> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<AccessibilityRun>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `The accessibility engine did not finish within ${formatSeconds(timeoutMs)}.` }),
      timeoutMs,
    );
  });
  const running = runIsolated(page).catch(
    (error: unknown): AccessibilityRun => ({ ok: false, reason: `The accessibility engine could not run: ${firstLine(error)}` }),
  );
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function runIsolated(page: Page): Promise<AccessibilityRun> {
  const session = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await session.send('Page.getFrameTree');
    const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME });
    // `void 0`: the script's own completion value is not wanted back.
    await evaluate(session, executionContextId, `${axeBrowserSource()}\n;void 0`, false);
    const call = `(${AXE_RUNNER_SOURCE})(${JSON.stringify(AXE_RUN_OPTIONS)}, ${JSON.stringify(ANSWER_LIMITS)})`;
    return toAccessibilityRun(await evaluate(session, executionContextId, call, true), RULE_IDS);
  } finally {
    void session.detach().catch(() => {});
  }
}

/** The expression's value, by value; a script error becomes a rejection. */
async function evaluate(session: CDPSession, contextId: number, expression: string, awaitPromise: boolean): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression,
    contextId,
    awaitPromise,
    returnByValue: true,
    // No pause on exceptions, no console report of them: the page's own tools never see the run.
    silent: true,
  });
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, MAX_ERROR_CHARS);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
