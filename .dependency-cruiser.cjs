// No import circle anywhere in the repo's TypeScript (docs/architecture.md "Boundaries"), checked by
// `pnpm lint`. Type-only imports count: a circle of types still ties its files into one lump that
// can only be read, moved and tested together (the trader's shared/api was one, issue 39).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports run one way: a file never reaches itself again through what it imports.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // The workspace packages resolve through node_modules to their src/ (their exports), and are followed.
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(node_modules|dist|\\.turbo|test-results|artifacts)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs'],
    },
  },
};
