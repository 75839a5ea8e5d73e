import { describe, it, expect } from 'vitest';
import { makeContext, makeSnapshot } from '../../../test/support/check-context.ts';
import { plaintextEmailCheck } from './plaintext-email.ts';

const run = (emails: string[], mailtoEmails: string[]) => {
  const text = { ...makeSnapshot().text, emails };
  return plaintextEmailCheck.run(makeContext({ snapshot: { text, mailtoEmails } }));
};

describe('plaintext_email', () => {
  it('passes without e-mail addresses', () => {
    expect(run([], [])).toMatchObject({ passed: true, value: { emails: 0 }, errors: null });
  });

  it('fails and lists addresses from text and mailto links, counting each address once', () => {
    const outcome = run(['info@example.com'], ['Info@Example.com', 'sales@example.com']);
    expect(outcome).toMatchObject({
      passed: false,
      value: { emails: 2, in_text: 1, in_mailto_links: 2 },
      errors: { in_text: ['info@example.com'], in_mailto_links: ['Info@Example.com', 'sales@example.com'] },
    });
  });
});
