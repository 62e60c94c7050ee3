/**
 * The fast loop, `npm run test:unit`: the unit and science tests (no emulator, no server, no
 * bundling) without the slow suites below, on two workers. `npm test` runs everything, these
 * included. docs/testing.md names every slow suite with its budget.
 */
const base = require('./jest.config.js');

/** Each takes tens of seconds alone: whole reference tables or raw files read per test, on purpose (see docs/testing.md). */
const SLOW_SUITES = [
  'test/unit/v1-risk-nri.test.ts',
  'test/unit/v1-risk-answers.test.ts',
  'test/unit/elevation-reproject-edges.test.ts',
  'test/unit/hazard-events.test.ts',
  'test/science/sea-level-projections.test.ts',
  'test/science/flood-days-peaks.test.ts',
  'test/science/water-never-land.test.ts',
  'test/science/tiled-connection-10m.test.ts',
];

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/science/**/*.test.ts'],
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...SLOW_SUITES.map((file) => `<rootDir>/${file}`)],
  maxWorkers: 2,
};
