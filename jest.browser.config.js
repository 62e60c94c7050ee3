/** `npm run test:browser`: the tests that drive a system Chromium (see test/browser/chromium.ts). */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
};
