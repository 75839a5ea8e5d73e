import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { titleCheck } from './title.ts';

const run = (titles: string[], titlesOutsideHead = 0) => titleCheck.run(makeContext({ snapshot: { titles, titlesOutsideHead } }));

describe('title', () => {
  it('passes one title of 10 to 60 characters, reporting it trimmed with whitespace collapsed', () => {
    const outcome = run(['  Fresh   bread\n daily | Bakery ']);
    expect(outcome).toEqual({ passed: true, value: { title: 'Fresh bread daily | Bakery', length: 26, count: 1, outside_head: 0 }, errors: null });
  });

  it('fails without a title', () => {
    expect(run([])).toMatchObject({ passed: false, value: { title: null, count: 0 }, errors: { missing: ['<title>'] } });
  });

  it('says so when the only titles are outside the head', () => {
    expect(run([], 1)).toMatchObject({ passed: false, errors: { outside_head: [{ count: 1 }] } });
  });

  it('fails an empty title and several titles', () => {
    expect(run(['   '])).toMatchObject({ passed: false, errors: { empty: ['<title>'] } });
    expect(run(['Bread and cakes shop', 'Second title here'])).toMatchObject({
      passed: false,
      value: { title: 'Bread and cakes shop', count: 2 },
      errors: { multiple: ['Bread and cakes shop', 'Second title here'] },
    });
  });

  it('counts code points, not UTF-16 units or bytes', () => {
    // 10 emoji are 20 UTF-16 units and 40 bytes, but 10 characters.
    expect(run(['😀'.repeat(10)]).passed).toBe(true);
    const accented = 'é'.repeat(60);
    expect(run([accented]).passed).toBe(true);
    expect(run([`${accented}é`])).toMatchObject({ passed: false, errors: { too_long: [{ length: 61, max: 60 }] } });
  });

  it('fails a title that is too short, using the configured limits', () => {
    expect(run(['Home'])).toMatchObject({ passed: false, errors: { too_short: [{ length: 4, min: 10 }] } });
    const relaxed = titleCheck.run(makeContext({ snapshot: { titles: ['Home'] }, thresholds: { title_min_chars: 3 } }));
    expect(relaxed.passed).toBe(true);
  });
});
