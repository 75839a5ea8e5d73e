// A stand-in analysis worker for the pool's tests: answers each task with its page's url after 20 ms
// of work (so tasks queue up behind it), and ends the whole thread on a page whose html is "crash",
// as a page that crashed the real worker would.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (task) => {
  const started = Date.now();
  while (Date.now() - started < 20) {
    // Busy, as a real analysis is: later tasks wait in the port meanwhile.
  }
  if (task.page.html === 'crash') process.exit(3);
  parentPort.postMessage({ analysis: { url: task.page.url }, failures: [] });
});
parentPort.postMessage({ ready: true });
