// The create benchmark's floor, run as its own process like the server: the same pages fetched with
// undici over keep-alive connections and parsed by a bare htmlparser2 parse (the engine floor's),
// by `concurrency` loops at once, with nothing else: no checks, no database, no HTTP API.
// Input (one JSON argument): { urls, warmUp, amount, concurrency }, or urlsFile (one URL a line)
// instead of urls when they are too many for an argument. Prints its Throughput as JSON, with
// the CPU (user + system, this process) it spent per request.
import { readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { request } from 'undici';
import { PARSER_OPTIONS } from '../src/parse/parse-page.ts';
import { round, throughput } from './stats.ts';

interface FloorInput {
  urls?: string[];
  urlsFile?: string;
  warmUp: number;
  amount: number;
  concurrency: number;
}

async function fetchAndParse(url: string): Promise<number> {
  const { statusCode, body } = await request(url);
  const html = await body.text();
  if (statusCode !== 200) throw new Error(`${url} answered ${statusCode}`);
  new Parser({}, PARSER_OPTIONS).end(html);
  return html.length;
}

async function run(urls: string[], amount: number, concurrency: number, latencies: number[] | null) {
  let next = 0;
  const loop = async () => {
    while (next < amount) {
      const url = urls[next++ % urls.length];
      const started = performance.now();
      await fetchAndParse(url);
      latencies?.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

const input = JSON.parse(process.argv[2]) as FloorInput;
const urls = input.urls ?? readFileSync(input.urlsFile!, 'utf8').split('\n').filter((line) => line !== '');
await run(urls, input.warmUp, input.concurrency, null);
const latencies: number[] = [];
const cpuBefore = process.cpuUsage();
const started = performance.now();
await run(urls, input.amount, input.concurrency, latencies);
const result = throughput(latencies, (performance.now() - started) / 1000);
const cpu = process.cpuUsage(cpuBefore);
const cpuMsPerRequest = round((cpu.user + cpu.system) / 1000 / latencies.length, 2);
process.stdout.write(`${JSON.stringify({ ...result, cpu_ms_per_request: cpuMsPerRequest })}\n`);
