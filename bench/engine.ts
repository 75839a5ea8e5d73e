// Engine benchmark: parse plus every check on each corpus page held in memory (fetch facts
// synthesised), against the floor of a bare htmlparser2 parse of the same strings with the same
// options and no callbacks. Rounds alternate floor and engine so drift (JIT, GC, CPU clocks) hits
// both alike.
import { getHeapStatistics } from 'node:v8';
import { Parser } from 'htmlparser2';
import { analyzePage } from '../src/analysis/analyze-page.ts';
import { DEFAULT_THRESHOLDS } from '../src/checks/thresholds.ts';
import { PARSER_OPTIONS } from '../src/parse/parse-page.ts';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus } from '../test/support/corpus.ts';
import type { BenchMode } from './mode.ts';
import { latency, MB, round, type Latency } from './stats.ts';

export interface Throughput extends Latency {
  pages_per_s: number;
  mb_per_s: number;
  /** total time of one pass over the corpus */
  pass_ms: number;
}

export interface EngineResult extends Throughput {
  pages: number;
  mb: number;
  rounds: number;
  /** highest V8 used-heap size seen after any page */
  peak_heap_mb: number;
  parse: Throughput;
  /** engine time / bare parse time; target at most 2.0 */
  ratio_vs_parse: number;
}

/** Passes over the corpus (smoke: over its first `pages` pages only). */
const ROUNDS: Record<BenchMode, { warmUp: number; measured: number; pages?: number }> = {
  smoke: { warmUp: 0, measured: 1, pages: 24 },
  quick: { warmUp: 1, measured: 1 },
  full: { warmUp: 2, measured: 10 },
};

export function runEngineBenchmark(mode: BenchMode): EngineResult {
  const rounds = ROUNDS[mode];
  const inputs = loadCorpus().slice(0, rounds.pages).map((page) => ({
    page: corpusFetchedPage(page),
    origin: corpusOriginFacts(page),
    html: page.html,
    bytes: page.bytes.length,
  }));
  const totalBytes = inputs.reduce((sum, input) => sum + input.bytes, 0);
  let peakHeap = 0;

  const bareParse = (input: (typeof inputs)[number]) => new Parser({}, PARSER_OPTIONS).end(input.html);
  const engine = (input: (typeof inputs)[number]) => analyzePage(input.page, input.origin, DEFAULT_THRESHOLDS);
  const pass = (work: (input: (typeof inputs)[number]) => unknown, samples: number[] | null, trackHeap: boolean) => {
    for (const input of inputs) {
      const started = performance.now();
      work(input);
      samples?.push(performance.now() - started);
      if (trackHeap) peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
    }
  };

  for (let round = 0; round < rounds.warmUp; round++) {
    pass(bareParse, null, false);
    pass(engine, null, true);
  }
  const parseSamples: number[] = [];
  const engineSamples: number[] = [];
  for (let round = 0; round < rounds.measured; round++) {
    pass(bareParse, parseSamples, false);
    pass(engine, engineSamples, true);
  }

  const throughput = (samples: number[]): Throughput => {
    const totalMs = samples.reduce((sum, sample) => sum + sample, 0);
    const seconds = totalMs / 1000;
    return {
      pages_per_s: round(samples.length / seconds, 1),
      mb_per_s: round((totalBytes * rounds.measured) / MB / seconds, 1),
      pass_ms: round(totalMs / rounds.measured, 1),
      ...latency(samples),
    };
  };
  const parse = throughput(parseSamples);
  const measured = throughput(engineSamples);
  return {
    pages: inputs.length,
    mb: round(totalBytes / MB, 1),
    rounds: rounds.measured,
    ...measured,
    peak_heap_mb: round(peakHeap / MB, 1),
    parse,
    ratio_vs_parse: round(measured.pass_ms / parse.pass_ms, 3),
  };
}
