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
  {
    // Tests and benchmarks read loosely typed JSON answers.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/bench/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
