import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { runChecks } from './run-checks.ts';
import { defineCheck } from '../checks/check.ts';
import { makeContext } from '../../test/support/check-context.ts';

const meta = { title: 't', failureTitle: 'f', description: 'd', howToFix: 'h', value: Type.Unknown() } as const;

describe('runChecks', () => {
  it('adds importance and category, drops errors of passing checks', () => {
    const check = defineCheck({
      ...meta, id: 'ok', category: 'security', importance: 'low',
      run: () => ({ passed: true, value: 3, errors: { x: [1] } }),
    });
    expect(runChecks([check], makeContext()).ok).toEqual({
      passed: true, importance: 'low', category: 'security', value: 3, errors: null,
    });
  });

  it('turns a throwing check into passed null with a reason and reports it', () => {
    const logged: string[] = [];
    const broken = defineCheck({
      ...meta, id: 'broken', category: 'seo', importance: 'high',
      run: () => { throw new Error('boom'); },
    });
    const fine = defineCheck({ ...meta, id: 'fine', category: 'seo', importance: 'high', run: () => ({ passed: false, value: null, errors: { bad: ['x'] } }) });
    const results = runChecks([broken, fine], makeContext(), (id) => logged.push(id));
    expect(results.broken).toMatchObject({ passed: null, reason: 'internal error' });
    expect(results.fine).toMatchObject({ passed: false, errors: { bad: ['x'] } });
    expect(logged).toEqual(['broken']);
  });
});
