import { describe, expect, it } from 'vitest';
import { collectEmails, mailtoAddresses, MAX_EMAILS } from './emails.ts';

function emailsIn(text: string): string[] {
  const found = new Map<string, string>();
  collectEmails(text, found);
  return [...found.values()];
}

describe('collectEmails', () => {
  it('finds addresses in running text without the punctuation around them', () => {
    expect(emailsIn('Write to jane.doe+news@mail.example.co.uk. Or (bob@example.org)!')).toEqual([
      'jane.doe+news@mail.example.co.uk',
      'bob@example.org',
    ]);
  });

  it('keeps one address per lower-case form, as first written', () => {
    expect(emailsIn('Info@Example.com and info@example.com')).toEqual(['Info@Example.com']);
  });

  it('ignores handles, file names and incomplete addresses', () => {
    expect(emailsIn('follow @pagegrade on social media')).toEqual([]);
    expect(emailsIn('logo@2x.png and icon@3x.webp')).toEqual([]);
    expect(emailsIn('user@localhost, user@, @example.com, a@b.c')).toEqual([]);
  });

  it('stops at MAX_EMAILS addresses', () => {
    const text = Array.from({ length: MAX_EMAILS + 10 }, (_, i) => `user${i}@example.com`).join(' ');
    expect(emailsIn(text)).toHaveLength(MAX_EMAILS);
  });
});

describe('mailtoAddresses', () => {
  it('drops the scheme and the query and decodes escapes', () => {
    expect(mailtoAddresses('mailto:info%40example.com?subject=Hi')).toEqual(['info@example.com']);
    expect(mailtoAddresses(' MAILTO:Jane@Example.com')).toEqual(['Jane@Example.com']);
  });

  it('splits several recipients', () => {
    expect(mailtoAddresses('mailto:a@example.com, b@example.com')).toEqual(['a@example.com', 'b@example.com']);
  });

  it('gives nothing for other links and for mailto links without an address', () => {
    expect(mailtoAddresses('https://example.com/mailto:a@b.com')).toEqual([]);
    expect(mailtoAddresses('mailto:?subject=hello')).toEqual([]);
  });

  it('keeps a malformed escape as written', () => {
    expect(mailtoAddresses('mailto:100%@example.com')).toEqual(['100%@example.com']);
  });
});
