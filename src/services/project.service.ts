// Projects: listing, and deleting one with all of its reports in one transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import * as projectRepository from '../repositories/project.repository.ts';
import { deleteReportsOfProject } from '../repositories/report.repository.ts';
import { toProject } from '../repositories/project-summary-json.ts';
import { NotFoundError } from './errors.ts';
import { pageAndTotal, pageWindow, type PageItems } from './page-total.ts';
import type { JsonPage, Page, PageOf, Project } from './types.ts';

export interface ProjectListOptions {
  search?: string;
  sortBy: 'created_at' | 'project';
  sort: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export function createProjectService(db: Kysely<Database>) {
  async function listPage<Items extends PageItems>(
    userId: number,
    options: ProjectListOptions,
    readPage: (db: Kysely<Database>, userId: number, query: projectRepository.ProjectListOptions) => Promise<Items>,
  ): Promise<PageOf<Items>> {
    const window = pageWindow(options.page, options.perPage);
    const { items, total } = await pageAndTotal(
      window,
      () => readPage(db, userId, { search: options.search, sortBy: options.sortBy, sort: options.sort, ...window }),
      () => projectRepository.countProjects(db, userId, { search: options.search }),
    );
    return { items, total, page: options.page, perPage: options.perPage };
  }

  return {
    async list(userId: number, options: ProjectListOptions): Promise<Page<Project>> {
      return listPage(userId, options, async (...args) => (await projectRepository.listProjects(...args)).map(toProject));
    },

    /** list() with the items as the API's JSON text. */
    async listJson(userId: number, options: ProjectListOptions): Promise<JsonPage> {
      return listPage(userId, options, projectRepository.listProjectItemsJoined);
    },

    /** The caller's project of that name, if it has one (a project exists while it has reports). */
    async find(userId: number, name: string): Promise<Project | undefined> {
      const row = await projectRepository.findProject(db, userId, name);
      return row && toProject(row);
    },

    /** Deletes the project and every report of the caller in it; returns how many reports went. */
    async remove(userId: number, name: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const project = await projectRepository.lockProject(trx, userId, name);
        if (!project) throw new NotFoundError();
        const deleted = await deleteReportsOfProject(trx, userId, name);
        await projectRepository.deleteProject(trx, userId, name);
        return deleted;
      });
    },
  };
}
