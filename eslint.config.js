import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
);
