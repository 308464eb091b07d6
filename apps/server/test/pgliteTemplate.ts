import type { TestProject } from 'vitest/node';
import { dumpPgliteTemplate } from './db';

/** The `pglite` test project: the run's migrated data directory, which every test's PGlite starts from. */
export default async function setup(project: TestProject) {
  // TEST_DB_TEMPLATE=off: every file starts and migrates its own, as before the template (to compare).
  if (process.env.TEST_DB_TEMPLATE === 'off') return;
  const template = await dumpPgliteTemplate();
  project.provide('pgliteTemplate', template.file);
  project.provide('pgliteTemplateDir', template.dir);
  project.provide('pgliteCopies', template.copies);
  return () => template.remove();
}
