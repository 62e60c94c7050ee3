/** Tests run through SWC (no type-check here: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)sx?$': ['@swc/jest'] },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|fauxqs)/)'],
  moduleNameMapper: { '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js' },
  testTimeout: 60000,
};
