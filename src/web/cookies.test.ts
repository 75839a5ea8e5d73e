import { describe, expect, it } from 'vitest';
import { sessionCookieOptions, unlockCookieOptions } from './cookies.ts';

describe('cookie options', () => {
  it('marks cookies Secure exactly when the request came over https', () => {
    const expires = new Date(Date.now() + 3600_000);
    expect(sessionCookieOptions(true, expires).secure).toBe(true);
    expect(sessionCookieOptions(false, expires).secure).toBe(false);
    expect(unlockCookieOptions(true).secure).toBe(true);
    expect(unlockCookieOptions(false).secure).toBe(false);
  });

  it('gives the session a Max-Age until it expires, and the unlock none (a browser-session cookie)', () => {
    const now = new Date('2026-11-21T10:00:00.000Z');
    expect(sessionCookieOptions(false, new Date('2026-11-28T10:00:00.000Z'), now)).toEqual({
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: false,
      maxAge: 604_800,
    });
    expect(unlockCookieOptions(false)).toEqual({ path: '/reports/', httpOnly: true, sameSite: 'lax', secure: false });
  });
});
