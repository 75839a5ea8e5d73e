import { describe, expect, it } from 'vitest';
import { ANSWER_LIMITS, AXE_RUN_OPTIONS, AXE_RUNNER_SOURCE, toAccessibilityRun } from './axe-run.ts';

/** The runner as the page runs it, here with a stand-in for axe-core that answers `results`. */
function runnerWith(results: unknown): { run: () => Promise<unknown>; options: () => unknown } {
  let given: unknown;
  const axe = { run: async (_document: unknown, options: unknown) => ((given = options), results) };
  const runner = new Function('axe', 'document', `return (${AXE_RUNNER_SOURCE});`)(axe, {}) as (options: unknown, limits: unknown) => Promise<unknown>;
  return { run: () => runner(AXE_RUN_OPTIONS, ANSWER_LIMITS), options: () => given };
}

const node = (overrides: Record<string, unknown> = {}) => ({
  target: ['img.hero'],
  html: '<img class="hero" src="/hero.png">',
  failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
  ...overrides,
});
const rule = (id: string, nodes: unknown[] = [node()]) => ({ id, impact: 'critical', tags: [], nodes });

describe('axe.run options', () => {
  it('run the WCAG A and AA tags, turn on the rules axe-core leaves off, and report only the violations\' elements', () => {
    expect(AXE_RUN_OPTIONS.runOnly).toEqual({ type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] });
    expect(AXE_RUN_OPTIONS.rules).toMatchObject({ 'target-size': { enabled: true } });
    expect(Object.values(AXE_RUN_OPTIONS.rules).every((setting) => setting.enabled)).toBe(true);
    expect(AXE_RUN_OPTIONS).toMatchObject({ resultTypes: ['violations'], iframes: false, preload: false, elementRef: false });
  });
});

describe('the runner in the page', () => {
  it('passes the options to axe.run and keeps only rule ids, counts and what each violating element is', async () => {
    const runner = runnerWith({
      violations: [rule('image-alt', [node(), node({ target: ['#b'], html: '<img id="b">', failureSummary: undefined })])],
      passes: [rule('document-title')],
      incomplete: [rule('color-contrast')],
      inapplicable: [{ id: 'video-caption', nodes: [] }],
    });
    expect(await runner.run()).toEqual({
      violations: [
        {
          id: 'image-alt',
          nodes: 2,
          items: [
            { selector: 'img.hero', snippet: '<img class="hero" src="/hero.png">', message: 'Fix any of the following:\n  Element does not have an alt attribute' },
            { selector: '#b', snippet: '<img id="b">', message: '' },
          ],
        },
      ],
      passes: ['document-title'],
      incomplete: ['color-contrast'],
      inapplicable: ['video-caption'],
    });
    expect(runner.options()).toEqual(AXE_RUN_OPTIONS);
  });

  it('bounds what it sends: 25 elements a rule (all counted), and each string cut to its limit', async () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      node({ target: [[`#host-${i}`, 'button']], html: `<button>${'x'.repeat(500)}</button>`, failureSummary: 'y'.repeat(5000) }),
    );
    const answer = (await runnerWith({ violations: [rule('button-name', many)], passes: [], incomplete: [], inapplicable: [] }).run()) as {
      violations: { nodes: number; items: { selector: string; snippet: string; message: string }[] }[];
    };
    const [violated] = answer.violations;
    expect(violated.nodes).toBe(40);
    expect(violated.items).toHaveLength(25);
    expect(violated.items[0].selector).toBe('#host-0 >>> button');
    expect(violated.items[0].snippet).toHaveLength(200);
    expect(violated.items[0].message).toHaveLength(500);
    const long = await runnerWith({ violations: [rule('label', [node({ target: ['#' + 'z'.repeat(2000)] })])], passes: [], incomplete: [], inapplicable: [] }).run();
    expect((long as typeof answer).violations[0].items[0].selector).toHaveLength(500);
  });
});

describe('toAccessibilityRun', () => {
  const ids = ['image-alt', 'label', 'color-contrast', 'document-title', 'video-caption'];

  it('gives each rule one outcome: violated on one element wins, then passed on one, then needs review, then inapplicable', () => {
    const run = toAccessibilityRun(
      {
        violations: [{ id: 'image-alt', nodes: 3, items: [{ selector: 'img', snippet: '<img>', message: 'no alt' }] }],
        passes: ['image-alt', 'document-title', 'label'],
        incomplete: ['image-alt', 'label', 'color-contrast'],
        inapplicable: ['video-caption'],
      },
      ids,
    );
    expect(run).toEqual({
      ok: true,
      rules: {
        'image-alt': { outcome: 'violation', nodes: 3, violations: [{ selector: 'img', snippet: '<img>', message: 'no alt' }] },
        label: { outcome: 'passed' },
        'color-contrast': { outcome: 'incomplete' },
        'document-title': { outcome: 'passed' },
        'video-caption': { outcome: 'inapplicable' },
      },
    });
    // In catalogue order, whatever order axe-core answered in.
    expect(Object.keys(run.ok ? run.rules : {})).toEqual(ids);
  });

  it('keeps only the catalogue\'s rules and leaves out those axe-core did not report', () => {
    const run = toAccessibilityRun({ violations: [{ id: 'made-up', nodes: 1, items: [] }], passes: ['label', '__proto__'], incomplete: [], inapplicable: [] }, ids);
    expect(run).toEqual({ ok: true, rules: { label: { outcome: 'passed' } } });
  });

  it('holds an answer to every bound again, reading it as untrusted', () => {
    const items = Array.from({ length: 30 }, () => ({ selector: 's'.repeat(900), snippet: 7, message: 'm'.repeat(2000), extra: 'dropped' }));
    const run = toAccessibilityRun({ violations: [{ id: 'label', nodes: 'many', items }, { id: 'image-alt', nodes: 2, items: 'none' }] }, ids);
    if (!run.ok) throw new Error(run.reason);
    const label = run.rules.label;
    if (label.outcome !== 'violation') throw new Error('label is violated');
    expect(label.nodes).toBe(25);
    expect(label.violations).toHaveLength(25);
    expect(label.violations[0]).toEqual({ selector: 's'.repeat(500), snippet: '', message: 'm'.repeat(500) });
    // A count below the elements listed is not believed.
    expect(run.rules['image-alt']).toEqual({ outcome: 'violation', nodes: 2, violations: [] });
  });

  it('says so when the answer is not one it can read', () => {
    for (const answer of [undefined, null, 'violations', [], { passes: [] }]) {
      expect(toAccessibilityRun(answer, ids)).toEqual({ ok: false, reason: 'The accessibility engine gave an answer pagegrade could not read.' });
    }
  });
});
