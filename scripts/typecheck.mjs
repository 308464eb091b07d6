// The typecheck of every package (`pnpm typecheck`): one TypeScript program per set of compiler options instead of
// one per package. A package's own tsconfig.json decides what is checked and how; the packages whose options are
// the same are checked together, so the sources they share (contract, ui, i18n …) and React's and Mantine's types
// are read and checked once, not once per package that imports them (docs/testing.md: 96.7 → 38.9 CPU-s).
// The checker is TypeScript 7's native compiler (`typescript-7`), one thread per program: ~4× less CPU than
// TypeScript 5's on the same programs (docs/testing.md). TypeScript 5 (`typescript`) only reads the configs here;
// the tools that need its JavaScript API (typescript-eslint, dependency-cruiser) keep it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin/tsc');
const packages = ['apps', 'packages']
  .flatMap((dir) => readdirSync(path.join(root, dir)).map((name) => path.join(root, dir, name)))
  .concat(path.join(root, 'e2e'))
  .filter((dir) => existsSync(path.join(dir, 'tsconfig.json')));

/** Options that name the config itself, not how the sources are checked. */
const OWN = new Set(['configFilePath', 'pathsBasePath']);

const groups = new Map();
for (const dir of packages) {
  const file = path.join(dir, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    file,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail },
  );
  if (!config) fail(`${file}: not readable`);
  if (config.errors.length) fail(format(config.errors));
  const key = JSON.stringify(
    Object.entries(config.options)
      .filter(([k]) => !OWN.has(k))
      .sort(),
  );
  const group = groups.get(key) ?? { dirs: [], files: new Set() };
  group.dirs.push(dir);
  config.fileNames.forEach((f) => group.files.add(f));
  groups.set(key, group);
}

let failed = false;
for (const { dirs, files } of groups.values()) {
  const started = performance.now();
  // The group's program: the first package's own config (the options are the same in every package of the group)
  // over every package's files. It sits in that package's node_modules, so its type libraries (`types`:
  // vite/client, node) resolve from the package's folder, as its own tsc would.
  const cache = path.join(dirs[0], 'node_modules/.cache/typecheck');
  mkdirSync(cache, { recursive: true });
  const config = path.join(cache, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({ extends: path.join(dirs[0], 'tsconfig.json'), include: [], files: [...files] }),
  );
  const run = spawnSync(process.execPath, [tsc, '-p', config, '--noEmit', '--singleThreaded', '--pretty'], {
    cwd: root,
    encoding: 'utf8',
  });
  rmSync(cache, { recursive: true, force: true });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const names = dirs.map((dir) => path.relative(root, dir)).join(' ');
  const errors =
    run.status === 0 ? 0 : (stripVTControlCharacters(run.stdout).match(/Found (\d+) error/)?.[1] ?? 'some');
  console.log(`typecheck ${names}: ${files.size} files, ${errors} errors, ${seconds} s`);
  if (run.status !== 0) {
    failed = true;
    console.error(run.stdout + run.stderr + (run.error ? String(run.error) : ''));
  }
}
process.exit(failed ? 1 : 0);

function format(diagnostics) {
  return ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

function fail(message) {
  console.error(typeof message === 'string' ? message : format([message]));
  process.exit(1);
}
