/**
 * `__proto__` as a name in JSON input: JSON.parse keeps it as an own key, zod then drops it without
 * a word, and copied onto an ordinary object by assignment it would replace that object's
 * prototype. It is refused wherever JSON comes in, so the caller learns it was not taken.
 */
export const PROTOTYPE_NAME = '__proto__';

export class ReservedNameError extends Error {
  constructor() {
    super(`"${PROTOTYPE_NAME}" is not accepted as a name`);
  }
}

/** JSON.parse, refusing `__proto__` as a name at any depth (also written with escapes); a SyntaxError as usual. */
export function parseJsonText(text: string): unknown {
  // The reviver costs a walk of every value: only when the name can be present, possibly escaped.
  if (!text.includes(PROTOTYPE_NAME) && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => {
    if (key === PROTOTYPE_NAME) throw new ReservedNameError();
    return value;
  });
}
