// How big a benchmark run is. full: the inputs and durations the targets are set for. quick: small
// inputs and short runs of every part (a few minutes), for a first look. smoke: the least that runs
// every part end to end and reports every metric (seconds; the benchmark's test runs it), measuring
// nothing worth reading.
export type BenchMode = 'smoke' | 'quick' | 'full';
