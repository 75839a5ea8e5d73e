// The analysis worker's entry when pagegrade runs from its TypeScript sources (tsx, vitest): worker
// threads do not inherit the tsx loader of the main thread (Node 20), so this plain module registers it
// before loading the TypeScript worker. The compiled package (dist/) starts analysis-worker.js instead,
// with no tsx (analysis-pool.ts picks one or the other).
import { register } from 'tsx/esm/api';

register();
await import('./analysis-worker.ts');
