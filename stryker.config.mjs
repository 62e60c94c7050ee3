/**
 * Mutation testing (`npm run test:mutation`): StrykerJS mutates the domain, the HTTP layer and the
 * adapters' conditional logic, and runs the fast tests (test/unit, test/science) against each
 * mutant through the repository's own jest configuration (SWC transform). Integration and e2e
 * tests start emulators and are left out. Incremental: results are kept in
 * test/mutation/stryker-incremental.json, so a re-run only tests mutants in changed code or covered
 * by changed tests; the file (tens of MB) stays out of git, so a fresh clone's first run tests every
 * mutant. `npm run mutation:scores` writes the per-folder scores from it (test/mutation/SCORES.md). Narrow a run with `npm run test:mutation -- --mutate 'shared/http/**'`.
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    config: {
      testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/science/**/*.test.ts'],
      // Each mutant runs the tests jest finds related to its file (--findRelatedTests), and jest
      // follows imports only through files under its roots: with the test folder alone, a module
      // reached through another source folder (a test → import-assets.ts → formats/csv.ts) has no
      // related test, and its mutants "survive" with no test run. Every source folder is a root.
      roots: ['<rootDir>/test', '<rootDir>/shared', '<rootDir>/functions', '<rootDir>/local', '<rootDir>/lib', '<rootDir>/scripts'],
      // The OpenAPI tests judge the generated document (not mutated code) and its drift from the
      // committed openapi.json, which is regenerated apart from code changes.
      testPathIgnorePatterns: ['/node_modules/', '/test/unit/openapi-'],
    },
    enableFindRelatedTests: true,
  },
  checkers: ['typescript'],
  // STRYKER_TSCONFIG narrows the type-checked project while one folder is being worked on.
  tsconfigFile: process.env.STRYKER_TSCONFIG ?? 'test/mutation/tsconfig.json',
  mutate: [
    'shared/domain/**/*.ts',
    'shared/application/**/*.ts',
    'shared/http/**/*.ts',
    'shared/observability/**/*.ts',
    'shared/adapters/conditional-write.ts',
    'shared/adapters/usage-counter.ts',
    'shared/adapters/dynamo-cursor.ts',
    'shared/adapters/idempotency-store.ts',
    'shared/adapters/query-all.ts',
    '!shared/**/ports.ts',
  ],
  // Replacing a string with "" mostly rewrites prose (details, titles, requirement texts); string
  // values the code branches on are typed unions, so the TypeScript checker judges those mutants.
  mutator: { excludedMutations: ['StringLiteral'] },
  ignorePatterns: ['.data', 'cdk.out', 'reports', 'coverage', 'bench', 'test/e2e', 'test/integration', 'test/infra', 'test/browser'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  cleanTempDir: 'always',
};
