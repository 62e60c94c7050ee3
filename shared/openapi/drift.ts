/**
 * Why the committed `openapi.json` differs from the generated one, or undefined when it does not:
 * names the first differing line so the message says where to look.
 */
export function describeDrift(committed: string | undefined, generated: string): string | undefined {
  if (committed === generated) return undefined;
  const fix = 'Run `npm run openapi` and commit openapi.json.';
  if (committed === undefined) return `openapi.json is missing. ${fix}`;
  const before = committed.split('\n');
  const after = generated.split('\n');
  const line = after.findIndex((text, i) => text !== before[i]);
  const at = line === -1 ? after.length : line;
  return `openapi.json is out of date with the route table (first difference at line ${at + 1}: `
    + `committed ${JSON.stringify((before[at] ?? '<end of file>').trim())}, generated ${JSON.stringify((after[at] ?? '<end of file>').trim())}). ${fix}`;
}
