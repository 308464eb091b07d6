import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---- App boundaries (docs/architecture.md "Boundaries") ----------------------------------------
// An app imports packages by their name only: never another app, never a package's files by path.
// Inside an app's src/, a feature folder imports its own folder, `shared/` or packages, never a
// sibling feature; `src/app/` and the files directly in src/ compose the features. Relative paths
// are checked by how far they climb: a file n folders below src/ that climbs n levels has reached
// src/ and may only go on into shared/; climbing further leaves the app.
const BROWSER_APPS = 'apps/{host,trader,pricer,volatility}';
const APP_NAMES = ['host', 'trader', 'pricer', 'volatility', 'server', 'e2e'].map((name) => `@pfp/${name}`);
const PACKAGES_ONLY = [
  {
    group: APP_NAMES.flatMap((name) => [name, `${name}/*`]),
    message: 'An app imports packages only, never another app.',
  },
  { group: ['@pfp/*/src', '@pfp/*/src/*'], message: 'Import a package by its name (its exports), not its src files.' },
];
const up = (levels) => String.raw`^(\.\./){${levels}}`;
/** Relative imports that leave src/ (test files may reach the app's own test/ helpers). */
const outOfSrc = (depth, test) => ({
  regex: up(depth + 1) + (test ? '(?!test/)' : ''),
  message: 'An app imports packages only: this path leaves the app (another app, or a package’s files).',
});
/** From a feature n folders deep, a path climbing n levels stands in src/: only shared/ is allowed there. */
const siblingFeature = (depth) => ({
  regex: up(depth) + String.raw`(?!\.\./)(?!shared(/|$))`,
  message: 'A feature imports its own folder, shared/ or packages, never a sibling feature or the app root.',
});
const appBoundaries = [0, 1, 2, 3, 4, 5].flatMap((depth) =>
  [false, true].map((test) => ({
    files: [`${BROWSER_APPS}/src/${'*/'.repeat(depth)}${test ? '*.test.{ts,tsx}' : '*.{ts,tsx}'}`],
    ignores: test ? [] : ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...PACKAGES_ONLY, outOfSrc(depth, test)] }],
    },
  })),
);
// Features (not the composition in src/app/) also keep out of their siblings.
const featureBoundaries = [1, 2, 3, 4, 5].flatMap((depth) =>
  [false, true].map((test) => ({
    files: [`${BROWSER_APPS}/src/${'*/'.repeat(depth)}${test ? '*.test.{ts,tsx}' : '*.{ts,tsx}'}`],
    ignores: [`${BROWSER_APPS}/src/app/**`, ...(test ? [] : ['**/*.test.{ts,tsx}'])],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...PACKAGES_ONLY, outOfSrc(depth, test), siblingFeature(depth)] },
      ],
    },
  })),
);

// ---- Server layers (docs/architecture.md "The server's layers") --------------------------------
// From the top: main.ts and app.ts, seed/, modules/ (the capabilities), market/, diff/, trading/ and
// identity/, platform/. A folder never imports one above it; modules' rules do not speak HTTP.
const SERVER = 'apps/server/src';
const SEED_ABOVE = 'seed/ uses the capabilities, not the other way round.';
const never = (folders, why) => ({
  regex: String.raw`(^|/)(${folders.join('|')})(/|$)`,
  message: why,
});
const serverLayer = (folder, above, why) => ({
  files: [`${SERVER}/${folder}/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [never(above, why)] }] },
});
/*
 * Inside modules/, the capabilities stand on floors (docs/architecture.md "Add a capability"): a
 * capability imports only capabilities on floors below its own, so every tie between two runs one
 * way and none loops. A new capability's folder takes the floor above all it imports (lint fails on
 * a folder missing here). Its tests may import any capability.
 */
const CAPABILITY_FLOORS = [
  ['audit', 'market', 'system', 'volatility'],
  ['agreement', 'authorised', 'notifications', 'staff', 'tenants'],
  ['margin'],
  ['contracts', 'fixing'],
  ['lifecycle', 'orders', 'pricing', 'statements'],
  ['conditional', 'customers', 'simhooks'],
  ['controls', 'live'],
  ['approvals'],
];
function capabilityFloors() {
  const dir = new URL(`./${SERVER}/modules/`, import.meta.url);
  const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
  const missing = folders.map((d) => d.name).filter((name) => !CAPABILITY_FLOORS.flat().includes(name));
  if (missing.length)
    throw new Error(`eslint.config.js: give modules/${missing.join(', modules/')} a floor in CAPABILITY_FLOORS`);
  const seed = never(['seed'], SEED_ABOVE);
  // A capability's rules (every file but routes.ts) never speak HTTP.
  const http = [
    {
      regex: String.raw`(^|/)http(/|$)`,
      message:
        'A capability’s rules do not speak HTTP: throw a DomainError (platform/errors.ts); routes.ts serves them.',
    },
    { group: ['fastify', '@fastify/*'], message: 'A capability’s rules do not speak HTTP: only its routes.ts does.' },
  ];
  return CAPABILITY_FLOORS.flatMap((floor, f) =>
    floor.flatMap((name) => {
      const notBelow = CAPABILITY_FLOORS.slice(f)
        .flat()
        .filter((other) => other !== name);
      const oneWay = {
        regex: String.raw`^\.\./(${notBelow.join('|')})(/|$)`,
        message: `modules/${name} stands on floor ${f + 1} of CAPABILITY_FLOORS (eslint.config.js): it imports capabilities below it only, so ties run one way.`,
      };
      const files = `${SERVER}/modules/${name}`;
      const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns: [seed, oneWay, ...patterns] }] });
      return [
        { files: [`${files}/*.ts`], ignores: ['**/*.test.ts', `${files}/routes.ts`], rules: rule(http) },
        { files: [`${files}/routes.ts`], rules: rule([]) },
      ];
    }),
  );
}

const serverLayers = [
  serverLayer(
    'platform',
    ['modules', 'trading', 'identity', 'market', 'diff', 'seed'],
    'platform/ is the ground floor (http, ws, db, views, auth): it imports none of the floors above it.',
  ),
  serverLayer(
    'trading',
    ['modules', 'identity', 'market', 'diff', 'seed'],
    'trading/ declares its ports (orderLife.ts, gateway.ts, quotes.ts, conditions.ts); the capabilities and the market plug into them.',
  ),
  serverLayer('identity', ['modules', 'trading', 'market', 'diff', 'seed'], 'identity/ stands on platform/ only.'),
  serverLayer(
    'diff',
    ['modules', 'market', 'identity', 'seed'],
    'diff/ is a protocol client: it implements trading’s gateway port and feeds the market.',
  ),
  serverLayer(
    'market',
    ['modules', 'trading', 'identity', 'seed'],
    'market/ is a source: its consumers import it, never the other way round.',
  ),
  serverLayer('modules', ['seed'], SEED_ABOVE),
  ...capabilityFloors(),
];

// ---- File size (issue 39) ----------------------------------------------------------------------
// A production file stays within 500 lines, every line counted: past that it holds more than one
// thing and is split by what it holds. Tests are not counted; catalogue data is (it is data, not code).
const FILE_SIZE = {
  files: ['{apps,packages}/*/src/**/*.{ts,tsx,js}'],
  ignores: [
    '**/*.test.{ts,tsx}',
    // The exchanges' product catalogue: one entry per product, data rather than code (899 lines).
    'apps/server/src/market/products.ts',
  ],
  rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'data/**', 'e2e/artifacts/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Mantine reaches the page once, as the shared subset in @pfp/mantine (docs/architecture.md).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        ...['@mantine/core', '@mantine/hooks'].map((name) => ({
          name,
          allowTypeImports: true,
          message: 'Import Mantine components from @pfp/mantine (the shared subset); add new ones to its list.',
        })),
        {
          name: 'react-router',
          message: 'Import the router from @pfp/router (the shared subset); add what you need to its list.',
        },
      ],
    },
  },
  {
    files: ['packages/mantine/**', 'packages/router/**'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  // Server layers (docs/architecture.md "The server's layers"): imports run one way only, down.
  ...serverLayers,
  {
    // Tests and benchmarks read loosely typed JSON answers.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/bench/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...appBoundaries,
  ...featureBoundaries,
  FILE_SIZE,
);
