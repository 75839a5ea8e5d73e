// The reports version moves in every write to an account's reports or projects (list answers and search
// counts are kept under it), only for the account written to, and not for a write that found nothing.
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId, reportInsert } from '../../test/support/repository-fixtures.ts';
import { adjustProjectCounts, deleteProject, insertProjectsBulk } from './project.repository.ts';
import { deleteReport, deleteReportsOfProject, insertReport, insertReportsBulk, updateReport } from './report.repository.ts';
import { readReportsVersion } from './reports-version.ts';

const NOW = '2026-11-21T10:00:00.000Z';
const LATER = '2026-11-21T11:00:00.000Z';
const ONE_GOOD = { reports: 1, good: 1, decent: 0, bad: 0 };

forEachDialect('reports version', (database) => {
  it('moves on every write to the account\'s reports or projects, and never for another account', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const bystander = await newUserId(db);
    expect(await readReportsVersion(db, owner)).toBe(0);

    let seen = 0;
    const expectMovedBy = async (write: () => Promise<unknown>) => {
      await write();
      const now = (await readReportsVersion(db, owner))!;
      expect(now).toBeGreaterThan(seen);
      seen = now;
    };
    await expectMovedBy(() => adjustProjectCounts(db, owner, 'a.example', ONE_GOOD, NOW));
    await expectMovedBy(() => adjustProjectCounts(db, owner, 'a.example', { reports: 0, good: -1, decent: 1, bad: 0 }, NOW));
    await expectMovedBy(() => adjustProjectCounts(db, owner, 'a.example', { reports: -1, good: 0, decent: -1, bad: 0 }, NOW));
    await expectMovedBy(() =>
      insertProjectsBulk(db, [{ user_id: owner, name: 'b.example', reports_count: 1, good_count: 1, decent_count: 0, bad_count: 0, created_at: NOW, updated_at: NOW }]),
    );
    await expectMovedBy(() => deleteProject(db, owner, 'b.example'));

    const id = await insertReport(db, reportInsert(owner));
    expect(await readReportsVersion(db, owner)).toBeGreaterThan(seen);
    seen = (await readReportsVersion(db, owner))!;
    // Changes that leave every count as it was still change what a list shows.
    await expectMovedBy(() => updateReport(db, owner, id, { privacy: 1, updated_at: LATER }));
    await expectMovedBy(() => updateReport(db, owner, id, { password_hash: 'scrypt$x', privacy: 2, updated_at: LATER }));
    await expectMovedBy(() => updateReport(db, owner, id, { score: 91, generated_at: LATER, updated_at: LATER }));
    await expectMovedBy(() => deleteReport(db, owner, id));
    await expectMovedBy(() => insertReportsBulk(db, [reportInsert(owner, { url: 'https://c.example/1' }), reportInsert(owner, { url: 'https://c.example/2' })]));
    await expectMovedBy(() => deleteReportsOfProject(db, owner, 'c.example'));

    // Writes that find nothing of the owner's change nothing.
    const other = await insertReport(db, reportInsert(bystander));
    const bystanderVersion = (await readReportsVersion(db, bystander))!;
    expect(await updateReport(db, owner, other, { privacy: 1, updated_at: LATER })).toBe(0);
    expect(await deleteReport(db, owner, other)).toBe(0);
    expect(await deleteReportsOfProject(db, owner, 'nothing.example')).toBe(0);
    expect(await readReportsVersion(db, owner)).toBe(seen);
    expect(await readReportsVersion(db, bystander)).toBe(bystanderVersion);
    expect(await readReportsVersion(db, owner + bystander + 1000)).toBeUndefined();
  });
});
