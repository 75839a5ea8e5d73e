// The list index worker's entry: worker threads do not inherit the tsx loader of the main thread
// (Node 20), so this plain module registers it before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./list-index-worker.ts');
