/**
 * Jest transform for third-party numeric code run in the test runner's vm context: the module reads
 * `Math` as a module binding instead of a global, which costs about a hundred times more per lookup
 * there (the tide predictor's harmonic sums call Math.cos/sin millions of times). Then SWC as usual.
 */
const swc = require('@swc/jest').createTransformer();

const PREFIX = 'const { Math } = globalThis;\n';

module.exports = {
  process: (source, file, options) => swc.process(PREFIX + source, file, options),
  getCacheKey: (source, file, options) => swc.getCacheKey(PREFIX + source, file, options),
};
