// A project's stored list item is remade by every change of its counts.
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId } from '../../test/support/repository-fixtures.ts';
import { adjustProjectCounts, insertProjectsBulk, listProjectItems, listProjects, type ProjectListOptions } from './project.repository.ts';
import { projectSummaryJson } from './project-summary-json.ts';

const T1 = '2026-11-21T10:00:00.000Z';
const T2 = '2026-11-21T11:00:00.000Z';
const PAGE: ProjectListOptions = { sortBy: 'project', sort: 'asc', limit: 10, offset: 0 };

forEachDialect('stored project summaries', (database) => {
  it('lists each project as the JSON of its row, after every change of its counts', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    await adjustProjectCounts(db, owner, 'b.example', { reports: 1, good: 1, decent: 0, bad: 0 }, T1);
    await adjustProjectCounts(db, owner, 'b.example', { reports: 1, good: 0, decent: 0, bad: 1 }, T2);
    await adjustProjectCounts(db, owner, 'b.example', { reports: 0, good: -1, decent: 1, bad: 0 }, T2);
    await insertProjectsBulk(db, [{ user_id: owner, name: 'a.example', reports_count: 2, good_count: 0, decent_count: 2, bad_count: 0, created_at: T1, updated_at: T1 }]);
    await adjustProjectCounts(db, await newUserId(db), 'b.example', { reports: 1, good: 1, decent: 0, bad: 0 }, T1);

    const items = (await listProjectItems(db, owner, PAGE)).map((item) => JSON.parse(item));
    expect(items).toEqual((await listProjects(db, owner, PAGE)).map((row) => JSON.parse(projectSummaryJson(row))));
    expect(items).toEqual([
      { project: 'a.example', reports_count: 2, result_counts: { good: 0, decent: 2, bad: 0 }, created_at: T1, updated_at: T1 },
      { project: 'b.example', reports_count: 2, result_counts: { good: 0, decent: 1, bad: 1 }, created_at: T1, updated_at: T2 },
    ]);
  });
});
