import { startPostgres } from './postgres';

/** The `postgres` test project: one throwaway cluster for the run. */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const pg = await startPostgres();
  provide('pgUrl', pg.url);
  return () => pg.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
