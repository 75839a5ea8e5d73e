// The render benchmark's floor, run as its own process: the same pages loaded in the same Chromium,
// with the same arguments, by playwright-core, and the DOM read as HTML, `concurrency` pages at once,
// and nothing else: one browser and one context for every page, no proxy or guard, no limits, no
// fetch of the raw HTML, no parse, no checks, no database, no HTTP API.
// Input (one JSON argument): { chromiumPath, urls, warmUpUrls, concurrency, timeoutMs }. Prints its
// Throughput as JSON, with how many pages could not be loaded.
import { launchChromium, loadAndRead } from '../src/render/chromium.ts';
import { throughput } from './stats.ts';

interface FloorInput {
  chromiumPath: string;
  urls: string[];
  warmUpUrls: string[];
  concurrency: number;
  timeoutMs: number;
}

const input = JSON.parse(process.argv[2]) as FloorInput;
// Hosts other than the corpus site's cannot be reached here (no internet, as in CI): the proxy's resolver
// says so at once, Chromium's own sometimes only after 10 s. Told at once too, the floor measures
// loading pages, not waiting on DNS (it waited out 7 of 60 pages, 106 s against 29 s, without this).
const browser = await launchChromium(input.chromiumPath, ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1']);
const context = await browser.newContext();

async function run(urls: string[], latencies: number[] | null): Promise<number> {
  let next = 0;
  let failed = 0;
  const loop = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      const started = performance.now();
      const page = await context.newPage();
      try {
        await loadAndRead(page, url, input.timeoutMs);
      } catch {
        failed += 1;
      } finally {
        await page.close();
      }
      latencies?.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: input.concurrency }, loop));
  return failed;
}

await run(input.warmUpUrls, null);
const latencies: number[] = [];
const started = performance.now();
const failed = await run(input.urls, latencies);
const result = { ...throughput(latencies, (performance.now() - started) / 1000), failed };
await browser.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
