/**
 * A module loaded afresh, in a registry of its own, so its top-level statements run again: for
 * modules that build something when they load (a list, an order, a pattern) or read the environment
 * then. A mutation run counts such code as covered only by a test that loads the module itself.
 * Pass the module's absolute path (`require.resolve('../../shared/…')`).
 */
export function freshModule<T>(absolutePath: string): T {
  let loaded: T | undefined;
  jest.isolateModules(() => {
    loaded = require(absolutePath) as T;
  });
  return loaded!;
}
