import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createVitest } from 'vitest/node';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The workspace packages whose `test` script runs vitest. */
function vitestPackages(): string[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(path.join(repo, group))
      .map((name) => path.join(repo, group, name))
      .filter((dir) => {
        try {
          const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
          return /\bvitest\b/.test(pkg.scripts?.test ?? '');
        } catch {
          return false;
        }
      }),
  );
}

// A pattern left behind by a move matches nothing and its suite stops running without a word
// (the view engine's tests ran on PGlite only for a while): each pattern of each project must
// match one of the files the project runs (its includes less its excludes).
it('every vitest include pattern of every package and project matches a test file', async () => {
  const empty: string[] = [];
  let patterns = 0;
  for (const dir of vitestPackages()) {
    const vitest = await createVitest('test', { root: dir, watch: false }, {}, {});
    try {
      for (const project of vitest.projects) {
        const { include, dir: testDir, root } = project.config;
        const files = (await project.globTestFiles()).testFiles.map((f) => path.relative(testDir ?? root, f));
        for (const pattern of include) {
          patterns++;
          if (!files.some((f) => path.matchesGlob(f, pattern)))
            empty.push(`${path.relative(repo, dir)} ${project.name || '(root)'}: ${pattern}`);
        }
      }
    } finally {
      await vitest.close();
    }
  }
  expect(patterns).toBeGreaterThan(10);
  expect(empty).toEqual([]);
});
