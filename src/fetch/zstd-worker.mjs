// The zstd decoder's thread (zstd-decoder.ts). fzstd decodes synchronously and, per block, moves its
// whole window: a body of many tiny blocks costs seconds of CPU for a few kilobytes of input, so it runs
// here, where it holds up no request and the fetch deadline can end it (the thread is terminated).
// Plain JavaScript on purpose: a TypeScript worker needs the tsx loader, 200 ms to start against 30.
//
// Messages in: {chunk: Uint8Array} then {end: true}. Out, in order: {block} for each decoded block,
// {consumed: true} once a chunk is decoded (the main thread sends the next one only then), and at the
// end {done: true}, or {error: 'too_large' | 'data', message} after which nothing more comes.
import { parentPort, workerData } from 'node:worker_threads';
import { Decompress } from 'fzstd';

const { maxBytes } = workerData;
const port = parentPort;
let produced = 0;
let failed = false;

class TooLarge extends Error {}

const decompress = new Decompress((block) => {
  produced += block.length;
  if (produced > maxBytes) throw new TooLarge();
  if (block.length === 0) return;
  // fzstd copies the block into its window after this call: post a copy, never the block itself.
  const copy = block.slice();
  port.postMessage({ block: copy }, [copy.buffer]);
});

function push(chunk, final) {
  try {
    decompress.push(chunk, final);
    return true;
  } catch (err) {
    failed = true;
    if (err instanceof TooLarge) port.postMessage({ error: 'too_large', message: `more than ${maxBytes} bytes` });
    else port.postMessage({ error: 'data', message: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

port.on('message', (message) => {
  if (failed) return;
  if (message.end) {
    if (push(new Uint8Array(0), true)) port.postMessage({ done: true });
  } else if (push(message.chunk, false)) {
    port.postMessage({ consumed: true });
  }
});
