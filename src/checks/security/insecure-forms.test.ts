import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Form } from '../../parse/page-snapshot.ts';
import { insecureFormsCheck } from './insecure-forms.ts';

const form = (action: string | null, hasPasswordField = false): Form => ({ action, method: 'post', hasPasswordField, tagStart: 0, tagEnd: 0 });

describe('insecure_forms', () => {
  it('does not apply without forms', () => {
    expect(insecureFormsCheck.run(makeContext())).toMatchObject({ passed: null, reason: 'the page has no forms' });
  });

  it('passes forms on an https page that submit over https', () => {
    const outcome = insecureFormsCheck.run(makeContext({ snapshot: { forms: [form(null, true), form('/search'), form('https://x.test/')] } }));
    expect(outcome).toMatchObject({ passed: true, value: { forms: 3, insecure: 0, password_forms: 1 } });
  });

  it('fails a form posting to http:// from an https page', () => {
    const outcome = insecureFormsCheck.run(makeContext({ snapshot: { forms: [form('http://x.test/subscribe'), form('http://x.test/subscribe')] } }));
    expect(outcome).toMatchObject({ passed: false, value: { insecure: 2 }, errors: { insecure_action: [{ action: 'http://x.test/subscribe' }] } });
  });

  it('fails forms of an http page and singles out password forms', () => {
    const outcome = insecureFormsCheck.run(
      makeContext({ page: { finalUrl: 'http://example.com/login' }, snapshot: { baseUrl: 'http://example.com/login', forms: [form('', true)] } }),
    );
    expect(outcome).toMatchObject({
      passed: false,
      value: { password_over_http: 1 },
      errors: { insecure_action: [{ action: 'http://example.com/login' }], password_over_http: [{ action: 'http://example.com/login' }] },
    });
  });
});
