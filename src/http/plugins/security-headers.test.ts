import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/api-app.ts';
import { contentSecurityPolicy } from '../../web/content-security-policy.ts';
import { helmetHeaders } from './security-headers.ts';

describe('security headers', () => {
  it('are helmet\'s defaults with the configured Content-Security-Policy', () => {
    const headers = helmetHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], imgSrc: ["'self'"] } } });
    expect(headers['content-security-policy']).toBe("default-src 'none';img-src 'self'");
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
  });

  it('leave out a header helmet is told to leave out', () => {
    expect(helmetHeaders({ contentSecurityPolicy: false, xFrameOptions: false })).not.toHaveProperty('x-frame-options');
  });

  describe('on every response of the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('sqlite');
    });
    afterAll(async () => {
      await t?.close();
    });

    it.each(['/health', '/api/v1/reports', '/no-such-page', '/'])('%s', async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain(`script-src ${contentSecurityPolicy.scriptSrc.join(' ')}`);
    });
  });
});
