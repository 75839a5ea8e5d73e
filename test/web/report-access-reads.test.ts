// Found by an attack on the web side: the anonymous not-found page of a private report with 5 MB of
// results took 4.6 ms against 0.7 ms for a missing id, so timing told the report existed. Who may see a
// report is now decided from its owner and privacy alone; its results are read only for a viewer who
// may see them. Checked by the queries run (which tables they touch), not by timing.
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { insertReport } from '../../src/repositories/report.repository.ts';
import { hashPassword } from '../../src/security/hashing.ts';
import { createReportAccessService } from '../../src/services/report-access.service.ts';
import { forEachDialect } from '../support/databases.ts';
import { newOrganizationId, reportInsert } from '../support/repository-fixtures.ts';

/** Records the text of every query's syntax tree, to tell which tables it reads. */
function queryRecorder() {
  const queries: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries.push(JSON.stringify(node));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, readResults: () => queries.some((query) => query.includes('"report_runs"')), clear: () => (queries.length = 0) };
}

const BIG_RESULTS = JSON.stringify({ title: { passed: true, value: 'x'.repeat(5 * 1024 * 1024) } });

forEachDialect('report page access reads', (database) => {
  it('reads no results for a viewer who is refused, and reads them for one who is not', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const privateId = await insertReport(db, reportInsert(owner, { privacy: 1, results: BIG_RESULTS }));
    const passwordId = await insertReport(
      db,
      reportInsert(owner, { privacy: 2, password_hash: await hashPassword('secret'), results: BIG_RESULTS }),
    );
    const recorder = queryRecorder();
    const access = createReportAccessService(db.withPlugin(recorder.plugin));
    const anonymous = { accountId: null, unlockToken: undefined };

    expect((await access.view(privateId, anonymous)).kind).toBe('hidden');
    expect((await access.view(privateId, { accountId: owner + 1000, unlockToken: undefined })).kind).toBe('hidden');
    expect((await access.view(passwordId, { accountId: null, unlockToken: 'forged' })).kind).toBe('locked');
    expect((await access.view(987_654_321, anonymous)).kind).toBe('hidden');
    expect(recorder.readResults()).toBe(false);
    // Unlocking needs the password hash, not the results either.
    const gate = await access.passwordGate(passwordId);
    expect(gate.kind).toBe('locked');
    if (gate.kind === 'locked') expect(await gate.check('wrong')).toBeNull();
    expect(recorder.readResults()).toBe(false);

    // The owner sees it, results and all: the recorder does see results being read.
    const seen = await access.view(privateId, { accountId: owner, unlockToken: undefined });
    expect(seen.kind).toBe('visible');
    expect(recorder.readResults()).toBe(true);
  });

  it('opens a password report with the token of the right password, then reads its results', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const id = await insertReport(db, reportInsert(owner, { privacy: 2, password_hash: await hashPassword('secret') }));
    const access = createReportAccessService(db);
    const gate = await access.passwordGate(id);
    const token = gate.kind === 'locked' ? await gate.check('secret') : null;
    expect(token).toEqual(expect.any(String));
    const seen = await access.view(id, { accountId: null, unlockToken: token! });
    expect(seen.kind === 'visible' && seen.report.results?.title).toEqual({ passed: true });
  });
});
