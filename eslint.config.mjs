// Lint without type information, so it stays fast enough for every commit: ESLint's and
// typescript-eslint's recommended rules, with the house conventions below. Import boundaries
// between the layers are dependency-cruiser's (.dependency-cruiser.cjs); `npm run lint` runs both.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = {
  module: 'writable',
  require: 'readonly',
  __dirname: 'readonly',
  process: 'readonly',
  console: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.data/',
      'coverage/',
      'reports/',
      '.stryker-tmp/',
      'shared/data/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a value left out on purpose (a field dropped by destructuring,
      // an argument an interface requires).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `require()` is how a module is loaded on first use rather than at cold start.
      '@typescript-eslint/no-require-imports': 'off',
      // Shown, not blocking: the few left walk untyped JSON (the OpenAPI document, route tables).
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Tests build stand-ins and hostile inputs on purpose: untyped doubles, generators that end
    // without yielding, literals beyond double precision.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      'require-yield': 'off',
      'no-loss-of-precision': 'off',
    },
  },
);
