import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEFAULT_THRESHOLDS } from './checks/thresholds.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      trustProxy: false,
      databaseUrl: undefined,
      adminKey: undefined,
      allowPrivateUrls: false,
      fetchTimeoutMs: 10_000,
      maxPageBytes: 5 * 1024 * 1024,
      rateLimitPerMinute: 120,
      redisUrl: undefined,
      maxAnalysesPerAccount: 16,
      maxAnalyses: 64,
      // a thread per core, at most four
      analysisThreads: Math.min(4, availableParallelism()),
      sqliteCacheMb: 256,
      workers: 4,
      secretKey: undefined,
      webhookRetryMs: [5000, 30000, 120000, 600000, 3600000],
    });
    expect(config.thresholds).toEqual(DEFAULT_THRESHOLDS);
  });

  it('reads the rendering settings: Debian\'s Chromium and two browsers by default', () => {
    expect(loadConfig({})).toMatchObject({ chromiumPath: '/usr/bin/chromium', renderConcurrency: 2 });
    expect(loadConfig({ PAGEGRADE_CHROMIUM_PATH: '/opt/chromium/chrome', PAGEGRADE_RENDER_CONCURRENCY: '4' })).toMatchObject({
      chromiumPath: '/opt/chromium/chrome',
      renderConcurrency: 4,
    });
    for (const bad of ['0', 'two', '33']) {
      expect(() => loadConfig({ PAGEGRADE_RENDER_CONCURRENCY: bad }), bad).toThrow(/PAGEGRADE_RENDER_CONCURRENCY must be an integer from 1 to 32/);
    }
  });

  it('reads the lab audit settings: a 30 s observation and one audit at once by default, within their ranges', () => {
    expect(loadConfig({})).toMatchObject({ labTimeoutMs: 30_000, labConcurrency: 1 });
    expect(loadConfig({ PAGEGRADE_LAB_TIMEOUT_MS: '1000', PAGEGRADE_LAB_CONCURRENCY: '8' })).toMatchObject({ labTimeoutMs: 1_000, labConcurrency: 8 });
    expect(loadConfig({ PAGEGRADE_LAB_TIMEOUT_MS: '120000' })).toMatchObject({ labTimeoutMs: 120_000 });
    for (const bad of ['999', '120001', '30s', '2.5']) {
      expect(() => loadConfig({ PAGEGRADE_LAB_TIMEOUT_MS: bad }), bad).toThrow(/PAGEGRADE_LAB_TIMEOUT_MS must be an integer from 1000 to 120000/);
    }
    for (const bad of ['0', '9', 'one']) {
      expect(() => loadConfig({ PAGEGRADE_LAB_CONCURRENCY: bad }), bad).toThrow(/PAGEGRADE_LAB_CONCURRENCY must be an integer from 1 to 8/);
    }
  });

  it('reads the crawl bounds: 5 crawls per account and 10,000 external URLs by default, within their ranges', () => {
    expect(loadConfig({})).toMatchObject({ crawlsPerAccount: 5, crawlMaxExternal: 10_000 });
    expect(loadConfig({ PAGEGRADE_CRAWLS_PER_ACCOUNT: '1000', PAGEGRADE_CRAWL_MAX_EXTERNAL: '1' })).toMatchObject({ crawlsPerAccount: 1000, crawlMaxExternal: 1 });
    for (const bad of ['0', 'five', '1001', '2.5']) {
      expect(() => loadConfig({ PAGEGRADE_CRAWLS_PER_ACCOUNT: bad }), bad).toThrow(/PAGEGRADE_CRAWLS_PER_ACCOUNT must be an integer from 1 to 1000/);
    }
    for (const bad of ['0', 'many', '1000001']) {
      expect(() => loadConfig({ PAGEGRADE_CRAWL_MAX_EXTERNAL: bad }), bad).toThrow(/PAGEGRADE_CRAWL_MAX_EXTERNAL must be an integer from 1 to 1000000/);
    }
  });

  it('reads the brand settings and refuses a bad colour, name or logo', () => {
    expect(loadConfig({}).brand).toEqual({ name: 'pagegrade', logoPath: undefined, color: '#0b5cad' });
    const dir = mkdtempSync(join(tmpdir(), 'brand-'));
    const logo = join(dir, 'logo.svg');
    writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(loadConfig({ PAGEGRADE_BRAND_NAME: ' Acme SEO ', PAGEGRADE_BRAND_COLOR: '#0B7A75', PAGEGRADE_BRAND_LOGO: logo }).brand).toEqual({
      name: 'Acme SEO',
      logoPath: logo,
      color: '#0b7a75',
    });
    for (const bad of ['red', '#fff', '#12345g', 'rgb(0,0,0)']) {
      expect(() => loadConfig({ PAGEGRADE_BRAND_COLOR: bad }), bad).toThrow(/PAGEGRADE_BRAND_COLOR must be a colour as #rrggbb/);
    }
    expect(() => loadConfig({ PAGEGRADE_BRAND_NAME: 'x'.repeat(61) })).toThrow(/PAGEGRADE_BRAND_NAME must be at most 60 characters/);
    expect(() => loadConfig({ PAGEGRADE_BRAND_LOGO: join(dir, 'missing.png') })).toThrow(/must name a readable image file/);
    expect(() => loadConfig({ PAGEGRADE_BRAND_LOGO: dir + '.exe' })).toThrow(/PAGEGRADE_BRAND_LOGO must be a .png/);
    writeFileSync(join(dir, 'huge.png'), Buffer.alloc(1024 * 1024 + 1));
    expect(() => loadConfig({ PAGEGRADE_BRAND_LOGO: join(dir, 'huge.png') })).toThrow(/at most 1024 KB/);
  });

  it('reads the webhook settings and refuses what cannot be meant', () => {
    const key = 'k'.repeat(32);
    expect(loadConfig({ PAGEGRADE_SECRET_KEY: key, PAGEGRADE_WEBHOOK_RETRY_MS: '50, 50,100' })).toMatchObject({
      secretKey: key,
      webhookRetryMs: [50, 50, 100],
    });
    expect(() => loadConfig({ PAGEGRADE_SECRET_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAGEGRADE_SECRET_KEY: 'short' })).toThrow(/PAGEGRADE_SECRET_KEY must be at least 32 characters/);
    for (const bad of ['0', '5000,', 'soon', '1.5', '-5', '5000;30000']) {
      expect(() => loadConfig({ PAGEGRADE_WEBHOOK_RETRY_MS: bad }), bad).toThrow(/PAGEGRADE_WEBHOOK_RETRY_MS must be a comma-separated list/);
    }
    expect(loadConfig({}).webhookConcurrency).toBe(8);
    expect(loadConfig({ PAGEGRADE_WEBHOOK_CONCURRENCY: '64' }).webhookConcurrency).toBe(64);
    for (const bad of ['0', '65', 'many']) {
      expect(() => loadConfig({ PAGEGRADE_WEBHOOK_CONCURRENCY: bad }), bad).toThrow(/PAGEGRADE_WEBHOOK_CONCURRENCY must be an integer from 1 to 64/);
    }
  });

  it('reads PAGEGRADE_TRUST_PROXY: off, one proxy on this machine, or the proxies\' addresses', () => {
    for (const off of [undefined, '', '0', ' 0 ']) expect(loadConfig({ PAGEGRADE_TRUST_PROXY: off }).trustProxy, off).toBe(false);
    expect(loadConfig({ PAGEGRADE_TRUST_PROXY: '1' }).trustProxy).toBe('one-local-proxy');
    expect(loadConfig({ PAGEGRADE_TRUST_PROXY: '10.0.0.0/8, ::1,loopback,192.0.2.7,fd00::/8,uniquelocal,linklocal' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
      '192.0.2.7',
      'fd00::/8',
      'uniquelocal',
      'linklocal',
    ]);
    expect(loadConfig({ PAGEGRADE_TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
  });

  it.each(['true', '2', '-1', 'yes', '10.0.0.300', '10.0.0.0/33', '10.0.0.0/0', '127.1', '10.0.0.1,', 'LOOPBACK', 'localhost', '::1/129'])(
    'refuses PAGEGRADE_TRUST_PROXY=%s, naming the setting and the forms it takes',
    (value) => {
      expect(() => loadConfig({ PAGEGRADE_TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ PAGEGRADE_TRUST_PROXY: value })).toThrow(
        /^PAGEGRADE_TRUST_PROXY must be 0 \(off\), 1 \(one proxy on this machine\) or a comma-separated list of the proxies' IPv4\/IPv6 addresses and CIDR ranges and the names loopback, linklocal, uniquelocal/,
      );
    },
  );

  it('reads PAGEGRADE_ALLOWED_ADDRESSES: none by default, else each address or range as address/prefix', () => {
    expect(loadConfig({}).allowedAddresses).toEqual([]);
    expect(loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: ' ' }).allowedAddresses).toEqual([]);
    expect(loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: '127.0.0.1, 10.0.0.0/8,FD00::/8' }).allowedAddresses).toEqual(['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8']);
  });

  it.each([
    ['10.0.0.0/8,intranet.example', '"intranet.example" is not an IPv4 or IPv6 address, nor one with a /prefix.'],
    ['10.0.0.1/8', '"10.0.0.1/8" has bits set past its /8 prefix (the range is 10.0.0.0/8).'],
    ['::/0', '"::/0" would allow every address; PAGEGRADE_ALLOW_PRIVATE_URLS=1 is the setting for that.'],
    [Array.from({ length: 101 }, (_, i) => `10.${i}.0.0/16`).join(','), 'it has 101 entries, more than 100.'],
  ])('refuses PAGEGRADE_ALLOWED_ADDRESSES=%s, naming the setting and the entry', (value, why) => {
    expect(() => loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: value })).toThrow(
      `PAGEGRADE_ALLOWED_ADDRESSES must be a comma-separated list of at most 100 IPv4/IPv6 addresses and CIDR ranges (e.g. 10.20.0.0/16,fd00::/8); ${why}`,
    );
  });

  it('reads the job retry wait and the scheduler interval, within their bounds', () => {
    expect(loadConfig({})).toMatchObject({ jobRetryMs: 5000, schedulerIntervalMs: 5000 });
    expect(loadConfig({ PAGEGRADE_JOB_RETRY_MS: '0', PAGEGRADE_SCHEDULER_INTERVAL_MS: '200' })).toMatchObject({ jobRetryMs: 0, schedulerIntervalMs: 200 });
    expect(() => loadConfig({ PAGEGRADE_JOB_RETRY_MS: '-1' })).toThrow(/PAGEGRADE_JOB_RETRY_MS must be an integer from 0 to 3600000; got "-1"/);
    expect(() => loadConfig({ PAGEGRADE_SCHEDULER_INTERVAL_MS: '50' })).toThrow(/PAGEGRADE_SCHEDULER_INTERVAL_MS must be an integer from 100 to 60000/);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PAGEGRADE_TRUST_PROXY: '1',
      DATABASE_URL: 'sqlite:/tmp/x.db',
      PAGEGRADE_ADMIN_KEY: 'pg_secret',
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_FETCH_TIMEOUT_MS: '2500',
      PAGEGRADE_MAX_PAGE_BYTES: '100000',
      PAGEGRADE_RATE_LIMIT: '30',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PAGEGRADE_MAX_ANALYSES_PER_ACCOUNT: '2',
      PAGEGRADE_MAX_ANALYSES: '8',
      PAGEGRADE_ANALYSIS_THREADS: '3',
      PAGEGRADE_SQLITE_CACHE_MB: '2048',
      PAGEGRADE_WORKERS: '0',
      PAGEGRADE_QUEUE_PREFIX: 'shop-audits',
      PAGEGRADE_JOB_LEASE_MS: '5000',
      PAGEGRADE_THRESHOLDS: '{"title_max_chars": 70, "min_words": 500}',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      trustProxy: 'one-local-proxy',
      databaseUrl: 'sqlite:/tmp/x.db',
      adminKey: 'pg_secret',
      allowPrivateUrls: true,
      fetchTimeoutMs: 2500,
      maxPageBytes: 100_000,
      rateLimitPerMinute: 30,
      redisUrl: 'redis://127.0.0.1:6379',
      maxAnalysesPerAccount: 2,
      maxAnalyses: 8,
      analysisThreads: 3,
      sqliteCacheMb: 2048,
      workers: 0,
      queuePrefix: 'shop-audits',
      jobLeaseMs: 5000,
    });
    expect(config.thresholds).toMatchObject({ title_max_chars: 70, min_words: 500, title_min_chars: 10 });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer'],
    [{ PAGEGRADE_RATE_LIMIT: '0' }, 'PAGEGRADE_RATE_LIMIT must be an integer of at least 1'],
    [{ PAGEGRADE_ANALYSIS_THREADS: '-1' }, 'PAGEGRADE_ANALYSIS_THREADS must be an integer of at least 0'],
    [{ PAGEGRADE_SQLITE_CACHE_MB: '1' }, 'PAGEGRADE_SQLITE_CACHE_MB must be an integer of at least 2'],
    [{ PAGEGRADE_SQLITE_CACHE_MB: '1.5' }, 'PAGEGRADE_SQLITE_CACHE_MB must be an integer of at least 2'],
    [{ PAGEGRADE_WORKERS: '-1' }, 'PAGEGRADE_WORKERS must be an integer from 0 to 64; got "-1"'],
    [{ PAGEGRADE_WORKERS: '400' }, 'PAGEGRADE_WORKERS must be an integer from 0 to 64; got "400"'],
    [{ PAGEGRADE_JOB_LEASE_MS: '10' }, 'PAGEGRADE_JOB_LEASE_MS must be an integer from 1000 to 3600000'],
    [{ PAGEGRADE_QUEUE_PREFIX: 'a:b' }, 'PAGEGRADE_QUEUE_PREFIX must be 1-64 letters'],
    [{ PAGEGRADE_THRESHOLDS: 'not json' }, 'must be a JSON object'],
    [{ PAGEGRADE_THRESHOLDS: '{"title_max": 3}' }, 'unknown key "title_max"'],
    [{ PAGEGRADE_THRESHOLDS: '{"min_words": -1}' }, 'non-negative number'],
  ])('refuses %j with a message naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
