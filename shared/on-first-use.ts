/**
 * A value made on the first call and kept: a library or data that most requests of a function do
 * not need, so that its load stays out of the function's cold start. A library is loaded by a
 * `require('name')` with a literal name inside `make`, which esbuild still bundles (as a module
 * initialised on that first call); its types come from `import type`.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

