import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newOrganizationId } from '../../test/support/repository-fixtures.ts';
import type { DbExecutor } from './executor.ts';
import {
  adjustProjectCounts,
  countProjects,
  deleteProject,
  findProject,
  insertProjectsBulk,
  listProjects,
  listProjectsAfter,
  sumProjectCounts,
  type ProjectCountsDelta,
} from './project.repository.ts';

const T1 = '2026-11-21T10:00:00.000Z';
const T2 = '2026-11-21T11:00:00.000Z';
const T3 = '2026-11-21T12:00:00.000Z';

const ADD_GOOD: ProjectCountsDelta = { reports: 1, good: 1, decent: 0, bad: 0 };
const ADD_BAD: ProjectCountsDelta = { reports: 1, good: 0, decent: 0, bad: 1 };
const GOOD_TO_DECENT: ProjectCountsDelta = { reports: 0, good: -1, decent: 1, bad: 0 };
const REMOVE_DECENT: ProjectCountsDelta = { reports: -1, good: 0, decent: -1, bad: 0 };
const REMOVE_BAD: ProjectCountsDelta = { reports: -1, good: 0, decent: 0, bad: -1 };

forEachDialect('project repository', (database) => {
  it('is created by the first report, follows the counts, and goes away with the last report', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);

    const created = await adjustProjectCounts(db, owner, 'a.com', ADD_GOOD, T1);
    expect(created).toMatchObject({
      organization_id: owner,
      name: 'a.com',
      name_lower: 'a.com',
      reports_count: 1,
      good_count: 1,
      decent_count: 0,
      bad_count: 0,
      created_at: T1,
      updated_at: T1,
    });

    await adjustProjectCounts(db, owner, 'a.com', ADD_BAD, T2);
    const rescored = await adjustProjectCounts(db, owner, 'a.com', GOOD_TO_DECENT, T3);
    expect(rescored).toMatchObject({ reports_count: 2, good_count: 0, decent_count: 1, bad_count: 1, created_at: T1, updated_at: T3 });
    expect(await findProject(db, owner, 'a.com')).toEqual(rescored);

    expect(await adjustProjectCounts(db, owner, 'a.com', REMOVE_DECENT, T3)).toMatchObject({ reports_count: 1, bad_count: 1 });
    expect(await adjustProjectCounts(db, owner, 'a.com', REMOVE_BAD, T3)).toBeUndefined();
    expect(await findProject(db, owner, 'a.com')).toBeUndefined();

    const recreated = await adjustProjectCounts(db, owner, 'a.com', ADD_GOOD, T3);
    expect(recreated).toMatchObject({ reports_count: 1, created_at: T3 });
  });

  it('refuses to take reports from a project that does not exist', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    await expect(adjustProjectCounts(db, owner, 'missing.com', REMOVE_BAD, T1)).rejects.toThrow(/out of step/);
    await expect(adjustProjectCounts(db, owner, 'missing.com', GOOD_TO_DECENT, T1)).rejects.toThrow(/out of step/);
    expect(await findProject(db, owner, 'missing.com')).toBeUndefined();
  });

  it('counts two first reports on a host made in parallel transactions', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    await Promise.all(
      [ADD_GOOD, ADD_BAD].map((delta) =>
        db.transaction().execute((trx) => adjustProjectCounts(trx, owner, 'race.com', delta, T1)),
      ),
    );
    expect(await findProject(db, owner, 'race.com')).toMatchObject({ reports_count: 2, good_count: 1, bad_count: 1 });
  });

  it('rolls back with the transaction it ran in', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const failure = new Error('the report insert failed');
    await expect(
      db.transaction().execute(async (trx) => {
        await adjustProjectCounts(trx, owner, 'rollback.com', ADD_GOOD, T1);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await findProject(db, owner, 'rollback.com')).toBeUndefined();
  });

  it('keeps each account’s project of the same name apart', async () => {
    const { db } = database();
    const alice = await newOrganizationId(db);
    const bob = await newOrganizationId(db);
    await adjustProjectCounts(db, alice, 'shared.com', ADD_GOOD, T1);
    await adjustProjectCounts(db, alice, 'shared.com', ADD_GOOD, T1);
    await adjustProjectCounts(db, bob, 'shared.com', ADD_BAD, T2);

    expect(await findProject(db, alice, 'shared.com')).toMatchObject({ reports_count: 2, good_count: 2, bad_count: 0 });
    expect(await findProject(db, bob, 'shared.com')).toMatchObject({ reports_count: 1, good_count: 0, bad_count: 1 });
    expect(await deleteProject(db, bob, 'shared.com')).toBe(1);
    expect(await deleteProject(db, bob, 'shared.com')).toBe(0);
    expect(await findProject(db, alice, 'shared.com')).toBeDefined();
  });

  describe('listing', () => {
    // Code-point order: '-' < '.' < ':' < letters; a locale collation that skips punctuation would not agree.
    const names = ['ab.com', 'a.com:8080', 'xn--bcher-kva.example', 'a.com', 'a-b.com', 'a.com.au'];
    const byCodePoint = ['a-b.com', 'a.com', 'a.com.au', 'a.com:8080', 'ab.com', 'xn--bcher-kva.example'];

    async function ownerWithProjects(db: DbExecutor, createdAt: (index: number) => string) {
      const owner = await newOrganizationId(db);
      const ids: number[] = [];
      for (const [index, name] of names.entries()) {
        const row = await adjustProjectCounts(db, owner, name, ADD_GOOD, createdAt(index));
        ids.push(row!.id);
      }
      return { owner, ids };
    }

    it('sorts by name in code-point order, both ways', async () => {
      const { db } = database();
      const { owner } = await ownerWithProjects(db, () => T1);
      const asc = await listProjects(db, owner, { sortBy: 'project', sort: 'asc', limit: 10, offset: 0 });
      expect(asc.map((row) => row.name)).toEqual(byCodePoint);
      const desc = await listProjects(db, owner, { sortBy: 'project', sort: 'desc', limit: 10, offset: 0 });
      expect(desc.map((row) => row.name)).toEqual([...byCodePoint].reverse());
    });

    it('sorts by created_at with ties broken by id in the same direction, and pages', async () => {
      const { db } = database();
      // indexes 0,1,2 at T2; 3,4 at T1; 5 at T3
      const { owner, ids } = await ownerWithProjects(db, (index) => (index < 3 ? T2 : index < 5 ? T1 : T3));
      const ascending = [ids[3], ids[4], ids[0], ids[1], ids[2], ids[5]];

      const asc = await listProjects(db, owner, { sortBy: 'created_at', sort: 'asc', limit: 10, offset: 0 });
      expect(asc.map((row) => row.id)).toEqual(ascending);
      const desc = await listProjects(db, owner, { sortBy: 'created_at', sort: 'desc', limit: 10, offset: 0 });
      expect(desc.map((row) => row.id)).toEqual([...ascending].reverse());

      const secondPage = await listProjects(db, owner, { sortBy: 'created_at', sort: 'asc', limit: 4, offset: 4 });
      expect(secondPage.map((row) => row.id)).toEqual(ascending.slice(4));
    });

    it('reads the whole list in batches after the last row read, in the list\'s order, for both sorts and a search', async () => {
      const { db } = database();
      const { owner } = await ownerWithProjects(db, (index) => (index < 3 ? T2 : index < 5 ? T1 : T3));
      await adjustProjectCounts(db, await newOrganizationId(db), 'a.com', ADD_GOOD, T1);
      for (const sortBy of ['project', 'created_at'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const search of [undefined, 'a.com']) {
            const options = { search, sortBy, sort };
            const whole = (await listProjects(db, owner, { ...options, limit: 10, offset: 0 })).map((row) => row.id);
            const read: number[] = [];
            for (let batch = await listProjectsAfter(db, owner, { ...options, limit: 2 }); batch.length > 0; ) {
              read.push(...batch.map((row) => row.id));
              batch = await listProjectsAfter(db, owner, { ...options, limit: 2 }, batch.at(-1));
            }
            expect(read, JSON.stringify(options)).toEqual(whole);
          }
        }
      }
    });

    it('searches names case-insensitively with wildcards taken literally, within the account', async () => {
      const { db } = database();
      const { owner } = await ownerWithProjects(db, () => T1);
      await adjustProjectCounts(db, owner, 'a_b.com', ADD_GOOD, T1);
      const stranger = await newOrganizationId(db);
      await adjustProjectCounts(db, stranger, 'a.com', ADD_GOOD, T1);
      const search = async (term: string) => ({
        names: (await listProjects(db, owner, { search: term, sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).map(
          (row) => row.name,
        ),
        count: await countProjects(db, owner, { search: term }),
      });

      expect(await search('A.COM')).toEqual({ names: ['a.com', 'a.com.au', 'a.com:8080'], count: 3 });
      expect(await search('_')).toEqual({ names: ['a_b.com'], count: 1 });
      expect(await search('%')).toEqual({ names: [], count: 0 });
      expect(await countProjects(db, owner, {})).toBe(names.length + 1);
    });
  });

  describe('bulk insert', () => {
    const project = (organizationId: number, name: string, good: number, bad: number) => ({
      organization_id: organizationId,
      name,
      reports_count: good + bad,
      good_count: good,
      decent_count: 0,
      bad_count: bad,
      created_at: T1,
      updated_at: T2,
    });

    it('inserts projects with their tallied counts, deriving name_lower', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      const names = Array.from({ length: 2_100 }, (_, index) => `Host-${String(index).padStart(4, '0')}.example`);
      await insertProjectsBulk(
        db,
        names.map((name, index) => project(owner, name, index % 5, 1)),
      );

      expect(await countProjects(db, owner, {})).toBe(names.length);
      expect(await countProjects(db, owner, { search: 'host-20' })).toBe(100);
      expect(await findProject(db, owner, names[7])).toMatchObject({
        name: 'Host-0007.example',
        name_lower: 'host-0007.example',
        reports_count: 3,
        good_count: 2,
        bad_count: 1,
        created_at: T1,
        updated_at: T2,
      });
    });

    it('refuses a name the account already has, and inserts none of the batch', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      await adjustProjectCounts(db, owner, 'taken.com', ADD_GOOD, T1);
      await expect(
        insertProjectsBulk(db, [project(owner, 'new.com', 1, 0), project(owner, 'taken.com', 1, 0)]),
      ).rejects.toThrow();
      expect(await findProject(db, owner, 'new.com')).toBeUndefined();
      expect(await findProject(db, owner, 'taken.com')).toMatchObject({ reports_count: 1 });
    });

    it('refuses more verdicts than reports; reports without a run count without one', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      await expect(insertProjectsBulk(db, [{ ...project(owner, 'a.com', 1, 0), reports_count: 0 }])).rejects.toThrow(/check/i);
      await insertProjectsBulk(db, [{ ...project(owner, 'b.com', 1, 0), reports_count: 3 }]);
      expect(await sumProjectCounts(db, owner, 'reports')).toBe(3);
      expect(await sumProjectCounts(db, owner, 'good')).toBe(1);
    });
  });

  it("adds up the account's report counts, overall, by verdict and in one project", async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    expect(await sumProjectCounts(db, owner, 'reports')).toBe(0);
    await adjustProjectCounts(db, owner, 'a.com', ADD_GOOD, T1);
    await adjustProjectCounts(db, owner, 'a.com', ADD_BAD, T1);
    await adjustProjectCounts(db, owner, 'b.com', ADD_GOOD, T1);
    await adjustProjectCounts(db, stranger, 'a.com', ADD_BAD, T1);

    expect(await sumProjectCounts(db, owner, 'reports')).toBe(3);
    expect(await sumProjectCounts(db, owner, 'good')).toBe(2);
    expect(await sumProjectCounts(db, owner, 'bad')).toBe(1);
    expect(await sumProjectCounts(db, owner, 'decent')).toBe(0);
    expect(await sumProjectCounts(db, owner, 'reports', 'a.com')).toBe(2);
    expect(await sumProjectCounts(db, owner, 'good', 'b.com')).toBe(1);
    expect(await sumProjectCounts(db, owner, 'reports', 'c.com')).toBe(0);
  });
});
