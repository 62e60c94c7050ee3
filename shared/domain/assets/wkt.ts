/** A node of WKT1 / WKT2 text: `KEYWORD[value, value, CHILD[...]]`. */
export interface WktNode {
  keyword: string;
  values: (string | number)[];
  children: WktNode[];
}

/** Parses the OGC WKT of a `.prj` file (ESRI or OGC flavour). Throws on text that is not WKT. */
export function parseWkt(text: string): WktNode {
  let pos = 0;
  const src = text.trim();
  const fail = (what: string): never => {
    throw new Error(`Not valid WKT: ${what} at character ${pos}`);
  };
  const skipSpace = () => {
    while (pos < src.length && /\s/.test(src[pos]!)) pos++;
  };
  const node = (depth: number): WktNode => {
    if (depth > 32) fail('nesting too deep');
    skipSpace();
    const start = pos;
    while (pos < src.length && /[A-Za-z0-9_]/.test(src[pos]!)) pos++;
    const keyword = src.slice(start, pos).toUpperCase();
    if (!keyword) fail('keyword expected');
    skipSpace();
    const open = src[pos];
    if (open !== '[' && open !== '(') fail('"[" expected');
    const close = open === '[' ? ']' : ')';
    pos++;
    const result: WktNode = { keyword, values: [], children: [] };
    for (;;) {
      skipSpace();
      const ch = src[pos];
      if (ch === undefined) fail('unexpected end');
      if (ch === close) {
        pos++;
        return result;
      }
      if (ch === '"') {
        const end = src.indexOf('"', pos + 1);
        if (end < 0) fail('unclosed string');
        result.values.push(src.slice(pos + 1, end));
        pos = end + 1;
      } else if (/[-+.\d]/.test(ch!)) {
        const start2 = pos;
        while (pos < src.length && /[-+.\deE]/.test(src[pos]!)) pos++;
        const value = Number(src.slice(start2, pos));
        if (!Number.isFinite(value)) fail('bad number');
        result.values.push(value);
      } else if (/[A-Za-z]/.test(ch!)) {
        // Either a child node or a bare enumeration word (`AXIS["X",EAST]`).
        const save = pos;
        while (pos < src.length && /[A-Za-z0-9_]/.test(src[pos]!)) pos++;
        skipSpace();
        if (src[pos] === '[' || src[pos] === '(') {
          pos = save;
          result.children.push(node(depth + 1));
        } else {
          result.values.push(src.slice(save, pos).trim());
        }
      } else {
        fail(`unexpected "${ch}"`);
      }
      skipSpace();
      if (src[pos] === ',') pos++;
    }
  };
  const root = node(0);
  skipSpace();
  if (pos !== src.length) fail('trailing text');
  return root;
}

export function child(node: WktNode, ...keywords: string[]): WktNode | undefined {
  return node.children.find((c) => keywords.includes(c.keyword));
}

/** Depth-first search for the first node with one of the keywords. */
export function find(node: WktNode, ...keywords: string[]): WktNode | undefined {
  for (const c of node.children) {
    if (keywords.includes(c.keyword)) return c;
    const deeper = find(c, ...keywords);
    if (deeper) return deeper;
  }
  return undefined;
}
