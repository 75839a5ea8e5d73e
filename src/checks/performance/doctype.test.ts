import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { doctypeCheck } from './doctype.ts';

const run = (raw: string | null, standardsMode: boolean) => doctypeCheck.run(makeContext({ snapshot: { doctype: { raw, standardsMode } } }));

describe('doctype', () => {
  it('passes a standards-mode doctype', () => {
    expect(run('!DOCTYPE html', true)).toMatchObject({ passed: true, value: { doctype: '!DOCTYPE html', mode: 'no-quirks' } });
  });

  it('fails a missing doctype', () => {
    expect(run(null, false)).toMatchObject({ passed: false, value: { doctype: null }, errors: { missing: ['<!DOCTYPE html>'] } });
  });

  it('tells limited-quirks from quirks doctypes', () => {
    const xhtml = '!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"';
    expect(run(xhtml, false)).toMatchObject({ passed: false, value: { mode: 'limited-quirks' }, errors: { limited_quirks_mode: [xhtml] } });
    const html32 = '!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"';
    expect(run(html32, false)).toMatchObject({ passed: false, value: { mode: 'quirks' }, errors: { quirks_mode: [html32] } });
    const html401NoSystemId = '!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"';
    expect(run(html401NoSystemId, false)).toMatchObject({ value: { mode: 'quirks' } });
  });

  it('says when a standard doctype comes after other content', () => {
    expect(run('!DOCTYPE html', false)).toMatchObject({ passed: false, value: { mode: 'quirks' }, errors: { content_before_doctype: ['!DOCTYPE html'] } });
  });
});
