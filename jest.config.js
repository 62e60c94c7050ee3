/** Tests run through SWC (no type-check here: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: 'node',
  // The Lambda runtime helpers leave a store on the global object between test files; keep it
  // rather than soft-delete it with a deprecation warning per worker.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The headless-browser tests need a system Chromium: `npm run test:browser` (jest.browser.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/browser/'],
  setupFiles: ['<rootDir>/test/helpers/quiet-logs.ts'],
  transform: {
    // Harmonic tide prediction: Math read as a module binding (see the transform).
    '/node_modules/@neaps/tide-predictor/.+\\.js$': '<rootDir>/test/helpers/module-math-transform.js',
    '^.+\\.(t|j|mj)sx?$': ['@swc/jest'],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|fauxqs|@scure|@noble/hashes|@otplib|otplib|@neaps/tide-predictor|flatbush|flatqueue|geotiff|quick-lru|jose|d3-array|d3-contour|d3-geo|internmap)/)'],
  moduleNameMapper: {
    '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js',
    // ESM-only, exported for `import` only.
    '^@neaps/tide-predictor$': '<rootDir>/node_modules/@neaps/tide-predictor/dist/index.js',
  },
  testTimeout: 60000,
};
