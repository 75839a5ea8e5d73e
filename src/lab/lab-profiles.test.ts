import { describe, expect, it } from 'vitest';
import { LAB_PROFILE, PAGEGRADE_TOKEN } from './lab-profiles.ts';

describe('the lab profiles', () => {
  it('throttle as Lighthouse\'s devtools method: latency RTT x 3.75, throughput floor(kbit/s x 0.9 x 1024 / 8) B/s', () => {
    expect(LAB_PROFILE.mobile.network).toEqual({ offline: false, latency: 562.5, downloadThroughput: 188_743, uploadThroughput: 86_400 });
    expect(LAB_PROFILE.desktop.network).toEqual({ offline: false, latency: 150, downloadThroughput: 1_179_648, uploadThroughput: 1_179_648 });
    expect([LAB_PROFILE.mobile.cpuSlowdown, LAB_PROFILE.desktop.cpuSlowdown]).toEqual([4, 1]);
  });

  it('show the page on a phone\'s and a desktop\'s screen', () => {
    expect(LAB_PROFILE.mobile).toMatchObject({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    expect(LAB_PROFILE.desktop).toMatchObject({ viewport: { width: 1350, height: 940 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false });
  });

  it('send Lighthouse\'s device strings followed by pagegrade\'s product token', () => {
    expect(PAGEGRADE_TOKEN).toMatch(/^pagegrade\/\d+(\.\d+)*$/);
    expect(LAB_PROFILE.mobile.userAgent).toBe(
      `Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36 ${PAGEGRADE_TOKEN}`,
    );
    expect(LAB_PROFILE.desktop.userAgent).toBe(
      `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36 ${PAGEGRADE_TOKEN}`,
    );
  });
});
