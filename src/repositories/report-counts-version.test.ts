// The counts version moves in every write that can change how many reports match a filter, and only
// for the account written to.
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId } from '../../test/support/repository-fixtures.ts';
import { adjustProjectCounts, deleteProject, insertProjectsBulk } from './project.repository.ts';
import { readReportCountsVersion } from './report-counts-version.ts';

const NOW = '2026-11-21T10:00:00.000Z';
const ONE_GOOD = { reports: 1, good: 1, decent: 0, bad: 0 };

forEachDialect('report counts version', (database) => {
  it('moves on every count change of the account, and never for another account', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const bystander = await newUserId(db);
    expect(await readReportCountsVersion(db, owner)).toBe(0);

    const seen = [0];
    const expectMoved = async () => {
      const now = (await readReportCountsVersion(db, owner))!;
      expect(now).toBeGreaterThan(seen.at(-1)!);
      seen.push(now);
    };
    await adjustProjectCounts(db, owner, 'a.example', ONE_GOOD, NOW);
    await expectMoved();
    await adjustProjectCounts(db, owner, 'a.example', { reports: 0, good: -1, decent: 1, bad: 0 }, NOW);
    await expectMoved();
    await adjustProjectCounts(db, owner, 'a.example', { reports: -1, good: 0, decent: -1, bad: 0 }, NOW);
    await expectMoved();
    await insertProjectsBulk(db, [{ user_id: owner, name: 'b.example', reports_count: 1, good_count: 1, decent_count: 0, bad_count: 0, created_at: NOW, updated_at: NOW }]);
    await expectMoved();
    await deleteProject(db, owner, 'b.example');
    await expectMoved();

    expect(await readReportCountsVersion(db, bystander)).toBe(0);
    expect(await readReportCountsVersion(db, owner + bystander + 1000)).toBeUndefined();
  });
});
