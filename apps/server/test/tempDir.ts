import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A temporary directory removed once the calling file's (or describe block's) tests are done, so runs leave
 * nothing in /tmp (each run used to leave ~80 MB of server data directories behind). Call it while the tests
 * are collected (module or describe body), not from inside a test or hook. With vitest's stacked after-hooks,
 * hooks registered after this one — e.g. one that kills a server using the directory — run before it.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}
