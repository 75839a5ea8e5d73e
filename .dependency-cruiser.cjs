// The layers of src/, checked by a machine (npm run lint:deps). The pipeline (README, "How it is
// built") runs one way:
//
//   fetch -> parse -> checks -> score -> store (db -> repositories -> queue -> services) -> API | web | CLI
//
// with analysis/ running fetch, parse, checks and score for the layers after it. A layer may import
// the layers before it and never those after it. Tests (*.test.ts, test/) reach across layers to set
// things up, so the layer rules skip them; a cycle counts wherever it is.
// (.cjs: package.json says "type": "module", and dependency-cruiser reads its config with require.)

/** Layer rules apply to source files, not to their tests. */
const notTest = '\\.test\\.ts$';
const adapters = '^src/(http|web|cli|mcp)/';
const storeAndAdapters = '^src/(db|repositories|queue|services|http|web|cli|mcp)/';
const kysely = '^node_modules/kysely/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules in a cycle cannot be read, tested or moved one without the other, and under ESM one of them ' +
        'runs against the other half-initialised. Type-only imports count: they tie two layers together just ' +
        'the same (db once imported a repositories type that imported a services type).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'db-not-to-layers-above',
      severity: 'error',
      comment:
        'db/ is the bottom of the store (connections, migrations, table types). Repositories, services and ' +
        'adapters build on it; a type db/ needs belongs in db/.',
      from: { path: '^src/db/', pathNot: notTest },
      to: { path: '^src/(repositories|queue|services|http|web|cli)/' },
    },
    {
      name: 'repositories-not-to-layers-above',
      severity: 'error',
      comment:
        'Repositories are plain Kysely functions that return rows (README, "How it is built"); the domain types and rules of ' +
        'services, and the adapters that call services, sit above them.',
      from: { path: '^src/repositories/', pathNot: notTest },
      to: { path: '^src/(queue|services|http|web|cli)/' },
    },
    {
      name: 'queue-not-to-services-or-adapters',
      severity: 'error',
      comment:
        'The queue runs whatever handlers it is given and never knows what a job means (handlers are ' +
        'plain service functions that never know which engine runs them). Services enqueue and provide the ' +
        'handlers; the server and `pagegrade worker` start it.',
      from: { path: '^src/queue/', pathNot: notTest },
      to: { path: '^src/(services|http|web|cli)/' },
    },
    {
      name: 'services-not-to-adapters',
      severity: 'error',
      comment:
        'Services speak domain types to the API, the web pages and the CLI alike; importing one of them would ' +
        'tie the others to it.',
      from: { path: '^src/services/', pathNot: notTest },
      to: { path: adapters },
    },
    {
      name: 'csv-only-formats',
      severity: 'error',
      comment:
        'csv/ writes exports (escaping, columns, the streamed file) for the API and the web pages alike, from the ' +
        'domain types services hand them; it reads nothing itself (rows come from lists/ through the adapter).',
      from: { path: '^src/csv/', pathNot: notTest },
      to: { path: ['^src/(db|repositories|queue|lists|http|web|cli)/', kysely] },
    },
    {
      name: 'csv-only-types-from-services',
      severity: 'error',
      comment: 'csv/ names the domain types it writes (ReportSummary, Project); it never runs a service.',
      from: { path: '^src/csv/', pathNot: notTest },
      to: { path: '^src/services/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-not-to-http',
      severity: 'error',
      comment:
        'The web pages and the API are two adapters side by side (http/ mounts web/, never the reverse). ' +
        'What both use, such as request and response schemas, lives in a shared place (src/schemas/), not in http/.',
      from: { path: '^src/web/', pathNot: notTest },
      to: { path: '^src/http/' },
    },
    {
      name: 'adapters-call-services',
      severity: 'error',
      comment:
        'Routes, web pages and CLI commands are thin adapters that call services and never import ' +
        'Kysely. A query from an adapter skips the rules services hold (ownership, transactions).',
      from: { path: adapters, pathNot: notTest },
      to: { path: ['^src/repositories/', kysely] },
    },
    {
      name: 'engine-not-to-store-or-adapters',
      severity: 'error',
      comment:
        'fetch, parse, checks, score and analysis (which runs them) know nothing of storage or presentation: ' +
        'the CLI, the benchmark and the tests run the engine without a database, and store and adapters build on it.',
      from: { path: '^src/(fetch|parse|robots|checks|scoring|analysis|render)/', pathNot: notTest },
      to: { path: [storeAndAdapters, kysely] },
    },
    {
      name: 'checks-only-types-from-fetch-scoring-analysis',
      severity: 'error',
      comment:
        'Checks are pure functions over the snapshot and the fetch facts (README, "How it is built"): they may name the types ' +
        'fetch hands on, never run network code; scoring and analysis build on checks, not the reverse.',
      from: { path: '^src/checks/', pathNot: notTest },
      to: { path: '^src/(fetch|scoring|analysis)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'checks-only-types-from-render',
      comment:
        'The browser is a fetcher (README, "How it is built"): a check reads the comparison of the raw and rendered snapshots ' +
        'from its context, never drives a browser, so it may name render/ types and call its pure helpers only.',
      severity: 'error',
      from: { path: '^src/checks/', pathNot: notTest },
      to: { path: '^src/render/(?!compare-rendered\\.ts$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'render-not-to-later-stages',
      severity: 'error',
      comment:
        'render/ loads pages in a browser and compares snapshots; scoring and analysis build on it. The one ' +
        'thing it borrows from checks is the JSON-LD reader, so both name the same types.',
      from: { path: '^src/render/', pathNot: notTest },
      to: { path: ['^src/(scoring|analysis)/', '^src/checks/(?!miscellaneous/json-ld\\.ts$)'] },
    },
    {
      name: 'parse-not-to-later-stages',
      severity: 'error',
      comment:
        'parse (with robots/, the robots.txt parser) turns what fetch read into typed data, once; checks, ' +
        'scoring and analysis consume it, so parse never depends on them.',
      from: { path: '^src/(parse|robots)/', pathNot: notTest },
      to: { path: '^src/(checks|scoring|analysis)/' },
    },
    {
      name: 'parse-only-types-from-fetch',
      severity: 'error',
      comment: 'parse works on text fetch has already read: it may name the types fetch hands on, never run network code.',
      from: { path: '^src/(parse|robots)/', pathNot: notTest },
      to: { path: '^src/fetch/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'fetch-not-to-later-stages',
      severity: 'error',
      comment:
        'fetch does all network work and nothing else, and hands plain data on (README, "How it is built"): it never parses the ' +
        'page, reads robots rules or runs checks. analysis/ puts fetch and parse together.',
      from: { path: '^src/fetch/', pathNot: notTest },
      to: { path: '^src/(parse|robots|checks|scoring|analysis)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import dependency-cruiser cannot resolve is an edge no rule above can see: fail rather than pass it silently.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Keep `import type` edges (TypeScript erases them) so rules can tell them apart: dependencyTypes
    // then holds 'type-only' for them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
