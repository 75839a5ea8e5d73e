// Project rows as the service keeps them, tallied from reports inserted in bulk (the plan tests'
// accounts, the read benchmark's million reports), so neither has to go through the service.
import type { ProjectInsert } from '../../src/repositories/project.repository.ts';
import type { ReportInsert } from '../../src/repositories/report.repository.ts';

/** Tallies project rows (counts, first and last report times) from the reports as they go by. */
export class ProjectTally {
  private readonly projects = new Map<string, ProjectInsert>();

  add(report: ReportInsert): void {
    const key = `${report.organization_id} ${report.project}`;
    let project = this.projects.get(key);
    if (!project) {
      project = {
        organization_id: report.organization_id,
        name: report.project,
        reports_count: 0,
        good_count: 0,
        decent_count: 0,
        bad_count: 0,
        created_at: report.created_at,
        updated_at: report.created_at,
      };
      this.projects.set(key, project);
    }
    project.reports_count += 1;
    if (report.result) project[`${report.result}_count`] += 1;
    project.updated_at = report.created_at;
  }

  rows(): ProjectInsert[] {
    return [...this.projects.values()];
  }
}
