import type { TestProject } from 'vitest/node';
import { dumpPgliteTemplate } from './db';

/** The `pglite` test project: the run's migrated data directory, which every test's PGlite starts from. */
export default async function setup(project: TestProject) {
  const template = await dumpPgliteTemplate();
  project.provide('pgliteTemplate', template.file);
  return () => template.remove();
}
