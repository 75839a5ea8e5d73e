import { describe, expect, it } from 'vitest';
import type { Analysis, CheckResult } from '../analysis/types.ts';
import type { Importance } from '../checks/check.ts';
import { allChecks, checksById } from '../checks/index.ts';
import type { Report } from '../services/types.ts';
import { agentReport, failedChecks, localAgentReport } from './agent-report.ts';

/** Real checks of each importance, so titles come from the registry. */
function checksOf(importance: Importance, count: number) {
  const found = allChecks.filter((check) => check.importance === importance).slice(0, count);
  expect(found).toHaveLength(count);
  return found;
}

function result(id: string, passed: boolean | null, value: unknown = null, errors: CheckResult['errors'] = null): CheckResult {
  const check = checksById.get(id);
  if (!check) throw new Error(`no check ${id}`);
  return { passed, importance: check.importance, category: check.category, value, errors, ...(passed === null && { reason: 'n/a' }) };
}

const [highA, highB] = checksOf('high', 2).sort((a, b) => (a.id < b.id ? -1 : 1));
const [mediumA, mediumB] = checksOf('medium', 2).sort((a, b) => (a.id < b.id ? -1 : 1));
const [low] = checksOf('low', 1);
const [passing, notApplying] = allChecks.filter((check) => ![highA, highB, mediumA, mediumB, low].includes(check));

/** Failures listed low first and against id order, among a pass and a check that did not apply. */
const RESULTS: Record<string, CheckResult> = {
  [low.id]: result(low.id, false, { count: 3 }, { items: ['a'] }),
  [passing.id]: result(passing.id, true),
  [mediumB.id]: result(mediumB.id, false),
  [highB.id]: result(highB.id, false, 7, { missing: [{ line: 2 }] }),
  [notApplying.id]: result(notApplying.id, null),
  [mediumA.id]: result(mediumA.id, false),
  [highA.id]: result(highA.id, false),
};

describe('failedChecks', () => {
  it('lists only the failed checks: high, then medium, then low, each group by id', () => {
    expect(failedChecks(RESULTS).map(({ id }) => id)).toEqual([highA.id, highB.id, mediumA.id, mediumB.id, low.id]);
  });

  it('gives each its importance, category, failure title, value and errors, and nothing else', () => {
    const failed = failedChecks(RESULTS);
    expect(failed[1]).toStrictEqual({
      id: highB.id,
      importance: 'high',
      category: highB.category,
      title: highB.failureTitle,
      value: 7,
      errors: { missing: [{ line: 2 }] },
    });
    expect(failed[4]).toStrictEqual({ id: low.id, importance: 'low', category: low.category, title: low.failureTitle, value: { count: 3 }, errors: { items: ['a'] } });
  });

  it('names a check the registry no longer has by its id, and has nothing to list without results', () => {
    const gone: CheckResult = { passed: false, importance: 'medium', category: 'seo', value: null, errors: null };
    expect(failedChecks({ retired_check: gone })).toEqual([expect.objectContaining({ id: 'retired_check', title: 'retired_check' })]);
    expect(failedChecks(null)).toEqual([]);
  });
});

const REPORT: Report = {
  id: 12,
  url: 'https://example.com/page',
  project: 'example.com',
  organization: 3,
  privacy: 0,
  password: false,
  result: 'decent',
  score: 71,
  issues: { high: 2, medium: 2, low: 1 },
  page: null,
  state: 'done',
  last_error: null,
  runs_count: 1,
  schedule: 'off',
  next_run_at: null,
  generated_at: '2026-01-02T03:04:05.000Z',
  created_at: '2026-01-02T03:04:00.000Z',
  updated_at: '2026-01-02T03:04:05.000Z',
  results: RESULTS,
};

describe('agentReport', () => {
  it('is the report\'s summary, its organisation, the link to its page and its failed checks', () => {
    expect(agentReport(REPORT, { organization: 3, origin: 'https://pagegrade.example' })).toStrictEqual({
      id: 12,
      url: 'https://example.com/page',
      project: 'example.com',
      organization: 3,
      state: 'done',
      score: 71,
      result: 'decent',
      issues: { high: 2, medium: 2, low: 1 },
      generated_at: '2026-01-02T03:04:05.000Z',
      report_url: 'https://pagegrade.example/reports/12',
      failed: failedChecks(RESULTS),
    });
  });

  it('of a report not analysed yet: nulls and no failed checks', () => {
    const queued: Report = { ...REPORT, state: 'queued', result: null, score: null, issues: null, generated_at: null, results: null };
    expect(agentReport(queued, { organization: 1, origin: 'http://localhost:3000' })).toMatchObject({
      state: 'queued',
      score: null,
      result: null,
      issues: null,
      generated_at: null,
      report_url: 'http://localhost:3000/reports/12',
      failed: [],
    });
  });
});

describe('localAgentReport', () => {
  it('is the agent report without id, organization, state and report_url; the project is the host', () => {
    const analysis = {
      url: 'http://127.0.0.1:8080/a?b=1',
      results: RESULTS,
      score: 40,
      result: 'bad',
      issues: { high: 2, medium: 2, low: 1 },
      generatedAt: new Date('2026-05-06T07:08:09.010Z'),
    } as Analysis;
    expect(localAgentReport(analysis)).toStrictEqual({
      url: 'http://127.0.0.1:8080/a?b=1',
      project: '127.0.0.1:8080',
      score: 40,
      result: 'bad',
      issues: { high: 2, medium: 2, low: 1 },
      generated_at: '2026-05-06T07:08:09.010Z',
      failed: failedChecks(RESULTS),
    });
  });
});
