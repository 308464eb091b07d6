import type { TestProject } from 'vitest/node';
import { createPostgresTemplate } from './db';
import { startPostgres } from './postgres';

/** The `postgres` test project: one throwaway cluster for the run, with the migrated template every file's database copies. */
export default async function setup(project: TestProject) {
  const pg = await startPostgres();
  try {
    await createPostgresTemplate(pg.url);
  } catch (e) {
    pg.stop();
    throw e;
  }
  project.provide('pgUrl', pg.url);
  return () => pg.stop();
}
