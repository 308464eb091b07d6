// The typecheck of every package (`pnpm typecheck`): one TypeScript program per set of compiler options instead of
// one per package. A package's own tsconfig.json decides what is checked and how; the packages whose options are
// the same are checked together, so the sources they share (contract, ui, i18n …) and React's and Mantine's types
// are read and checked once, not once per package that imports them (docs/testing.md: 96.7 → 38.9 CPU-s).
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
  const group = groups.get(key) ?? { options: config.options, dirs: [], files: new Set() };
  group.dirs.push(path.relative(root, dir));
  config.fileNames.forEach((f) => group.files.add(f));
  groups.set(key, group);
}

let failed = false;
for (const { options, dirs, files } of groups.values()) {
  const started = performance.now();
  // Type libraries (`types`: vite/client, node) resolve from the first package's folder, as its own tsc would.
  const program = ts.createProgram({ rootNames: [...files], options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`typecheck ${dirs.join(' ')}: ${files.size} files, ${diagnostics.length} errors, ${seconds} s`);
  if (diagnostics.length) {
    failed = true;
    console.error(format(diagnostics));
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
