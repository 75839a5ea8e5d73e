// Hostile bodies an attack on the fetcher used: zstd frames that declare a huge window or cost seconds
// of CPU per few kilobytes, Content-Encoding stacked thousands deep, and decoding that outlasts the
// fetch deadline. Each goes through fetchPage against a server this test starts; bounds are generous
// for a busy CI.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/fetch/fetch-error.ts';
import { fetchPage } from '../../src/fetch/fetch-page.ts';
import { sendHtml, startServer, testOptions, type TestServer } from './support/test-server.ts';

/** A zstd frame of `blocks` RLE blocks of one byte each, declaring a window of 2^windowLog (+ 7/8). */
function zstdFrame(windowDescriptor: number, blocks: number): Buffer {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor])];
  const rle = (last: boolean) => Buffer.from([(last ? 1 : 0) | (1 << 1) | (1 << 3), 0, 0, 0x41]);
  for (let i = 0; i < blocks; i++) parts.push(rle(i === blocks - 1));
  return Buffer.concat(parts);
}

/** Window descriptor: exponent 20, mantissa 7 -> 1 GiB + 7/8 GiB, just under what fzstd accepts. */
const WINDOW_1_9_GIB = (20 << 3) | 7;
/** 4 MiB: allowed (RFC 9659 allows up to 8 MiB). */
const WINDOW_4_MIB = 12 << 3;

/**
 * 6.5 KB, gzipped three times: 20 gzip members, each 40 MB of empty gzip members once inflated, so
 * 40 million members that inflate to nothing, seconds of work. The body is small enough to have
 * arrived whole before decoding starts, so only the decoding can outlast the deadline.
 */
function slowGzip(): Buffer {
  const emptyMember = zlib.gzipSync(Buffer.alloc(0));
  const member = zlib.gzipSync(Buffer.concat(Array(2_000_000).fill(emptyMember)), { level: 9 });
  return zlib.gzipSync(Buffer.concat(Array(20).fill(member)), { level: 9 });
}

let server: TestServer;
beforeAll(async () => {
  const slow = slowGzip();
  const routes: Record<string, Parameters<typeof sendHtml>[1]> = {
    '/zstd-huge-window': zstdFrame(WINDOW_1_9_GIB, 30),
    '/zstd-many-blocks': zstdFrame(WINDOW_4_MIB, 25_000),
    '/stacked': zlib.gzipSync('<!doctype html><title>x</title>'),
    '/slow-gzip': slow,
  };
  const encodings: Record<string, string> = {
    '/zstd-huge-window': 'zstd',
    '/zstd-many-blocks': 'zstd',
    '/stacked': Array(4000).fill('gzip').join(', '),
    '/slow-gzip': 'gzip, gzip, gzip',
  };
  server = await startServer((req, res) => sendHtml(res, routes[req.url!], { 'content-encoding': encodings[req.url!] }));
});
afterAll(() => server.close());

async function fetchFailure(path: string, timeoutMs = 5000) {
  const started = performance.now();
  const error = await fetchPage(server.origin + path, testOptions({ timeoutMs })).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(FetchError);
  return { error: error as FetchError, ms: performance.now() - started };
}

/** The longest the event loop went without running a timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('zstd', () => {
  it('refuses a frame that declares a 1.9 GiB window, before allocating it', async () => {
    const rssBefore = process.memoryUsage().rss;
    const { error } = await fetchFailure('/zstd-huge-window');
    expect(error.code).toBe('bad_response');
    expect(error.reason).toMatch(/window.*at most 8 MiB \(RFC 9659\)/);
    // Before: the decoder allocated the declared window (+1.9 GB).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
  });

  it('decodes off the main thread: 100 KB of tiny blocks stall no one, and the deadline ends them', async () => {
    let outcome: { error: FetchError; ms: number } | undefined;
    const stall = await longestStall(async () => {
      outcome = await fetchFailure('/zstd-many-blocks', 1000);
    });
    // Before: seconds of fzstd moving its 4 MiB window once per block, on the main thread, past the deadline.
    expect(outcome!.error.code).toBe('timeout');
    expect(outcome!.ms).toBeLessThan(3000);
    expect(stall).toBeLessThan(500);
  });
});

describe('Content-Encoding', () => {
  it('refuses more than 5 codings, saying so', async () => {
    const { error, ms } = await fetchFailure('/stacked');
    expect(error.code).toBe('bad_response');
    expect(error.reason).toMatch(/listed 4000 Content-Encodings; pagegrade undoes at most 5/);
    expect(ms).toBeLessThan(2000);
  });

  it('keeps the deadline until the body is decoded, not only until it has arrived', async () => {
    // Before: the deadline passed unnoticed and the fetch went on for seconds.
    const { error, ms } = await fetchFailure('/slow-gzip', 500);
    expect(error.code).toBe('timeout');
    expect(error.reason).toMatch(/did not send the whole page within 500 ms/);
    expect(ms).toBeLessThan(2500);
  });
});
