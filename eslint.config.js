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
      ],
    },
  },
  { files: ['packages/mantine/**'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },
  // Server layers (docs/architecture.md): the domain does not speak HTTP; the market does not know its consumers.
  {
    files: ['apps/server/src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(http|routes)(/|$)',
              message: 'domain/ does not speak HTTP: throw a DomainError (domain/errors.ts).',
            },
            { group: ['fastify', '@fastify/*'], message: 'domain/ does not speak HTTP.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/market/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(trading|volatility|ws|routes|http|domain)(/|$)',
              message: 'market/ is a source: its consumers import it, never the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and benchmarks read loosely typed JSON answers.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/bench/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...appBoundaries,
  ...featureBoundaries,
);
