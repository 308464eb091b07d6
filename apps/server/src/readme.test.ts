import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.resolve(src, '../../../README.md'), 'utf8');

/** Every NAME the server's code reads: `env.NAME`, `process.env.NAME`, a key of config.ts's schema. */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(src, { recursive: true }).map(String)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = readFileSync(path.join(src, file), 'utf8');
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
    if (path.basename(file) === 'config.ts')
      for (const m of text.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)) names.add(m[1]!);
  }
  return [...names].sort();
}

describe("README's configuration table", () => {
  it('lists every variable the server reads', () => {
    const read = variablesRead();
    expect(read).toEqual(expect.arrayContaining(['PUBLIC_URL', 'DATABASE_URL', 'OIDC_ISSUER', 'SEED_DEMO']));
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Other commands'));
    const missing = read.filter((name) => name !== 'PASSWORD' && !table.includes(`| \`${name}\``));
    expect(missing).toEqual([]);
  });
});
