// Projects: finding one, and deleting one with all of its reports in one transaction (lists are src/lists/).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import * as projectRepository from '../repositories/project.repository.ts';
import { deleteReportsOfProject } from '../repositories/report.repository.ts';
import { NotFoundError } from './errors.ts';
import { toProject } from './project-view.ts';
import type { Project } from './types.ts';

export function createProjectService(db: Kysely<Database>) {
  return {
    /** The caller's project of that name, if it has one (a project exists while it has reports). */
    async find(organizationId: number, name: string): Promise<Project | undefined> {
      const row = await projectRepository.findProject(db, organizationId, name);
      return row && toProject(row);
    },

    /** Deletes the project and every report of the caller in it; returns how many reports went. */
    async remove(organizationId: number, name: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const project = await projectRepository.lockProject(trx, organizationId, name);
        if (!project) throw new NotFoundError();
        const deleted = await deleteReportsOfProject(trx, organizationId, name);
        await projectRepository.deleteProject(trx, organizationId, name);
        return deleted;
      });
    },
  };
}
