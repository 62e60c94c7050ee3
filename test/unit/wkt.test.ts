import { child, find, parseWkt } from '../../shared/domain/assets/wkt';

/** The `.prj` of a Shapefile in NAD83 geographic coordinates, as ArcGIS writes it. */
const ESRI_NAD83 = 'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

describe('WKT parsing', () => {
  it('reads a whole .prj into keywords, values in order and children in order', () => {
    expect(parseWkt(ESRI_NAD83)).toEqual({
      keyword: 'GEOGCS',
      values: ['GCS_North_American_1983'],
      children: [
        { keyword: 'DATUM', values: ['D_North_American_1983'], children: [{ keyword: 'SPHEROID', values: ['GRS_1980', 6378137, 298.257222101], children: [] }] },
        { keyword: 'PRIMEM', values: ['Greenwich', 0], children: [] },
        { keyword: 'UNIT', values: ['Degree', 0.0174532925199433], children: [] },
      ],
    });
  });

  it('accepts round brackets, lower-case keywords, surrounding and inner whitespace', () => {
    expect(parseWkt(' \n\tunit ( "metre" ,\n 1 ) \n')).toEqual({ keyword: 'UNIT', values: ['metre', 1], children: [] });
    expect(parseWkt('A[ datum\t["x"] ]')).toEqual({ keyword: 'A', values: [], children: [{ keyword: 'DATUM', values: ['x'], children: [] }] });
    expect(parseWkt('A( datum ("x"))')).toEqual({ keyword: 'A', values: [], children: [{ keyword: 'DATUM', values: ['x'], children: [] }] });
  });

  it('reads signed, fractional and exponent numbers', () => {
    expect(parseWkt('P[-81.0,+2.5,1e-3,6378137.0,.5,2E2]').values).toEqual([-81, 2.5, 0.001, 6378137, 0.5, 200]);
  });

  it('keeps bare enumeration words as values, trimmed, beside child nodes', () => {
    expect(parseWkt('AXIS["Easting", EAST , ORDER[1]]')).toEqual({
      keyword: 'AXIS', values: ['Easting', 'EAST'], children: [{ keyword: 'ORDER', values: [1], children: [] }],
    });
  });

  it('keeps commas, brackets and spaces inside quoted strings', () => {
    expect(parseWkt('P["a, [b] (c)",""]').values).toEqual(['a, [b] (c)', '']);
  });

  it('takes values without a comma between them', () => {
    expect(parseWkt('P["a" "b" 3]').values).toEqual(['a', 'b', 3]);
  });

  it('allows 33 levels of nesting and refuses 34', () => {
    const nested = (levels: number) => `${'A['.repeat(levels)}${']'.repeat(levels)}`;
    let depth = 0;
    for (let node = parseWkt(nested(33)); node.children.length > 0; node = node.children[0]!) depth++;
    expect(depth).toBe(32);
    expect(() => parseWkt(nested(34))).toThrow('Not valid WKT: nesting too deep at character 66');
  });

  it.each([
    ['["x"]', 'keyword expected at character 0'],
    ['   [', 'keyword expected at character 0'],
    ['', 'keyword expected at character 0'],
    ['UNIT "m"', '"[" expected at character 5'],
    ['UNIT', '"[" expected at character 4'],
    ['UNIT["m",1', 'unexpected end at character 10'],
    ['UNIT["m",1)', 'unexpected ")" at character 10'],
    ['UNIT("m",1]', 'unexpected "]" at character 10'],
    ['P["abc', 'unclosed string at character 2'],
    ['P[1-2]', 'bad number at character 5'],
    ['P[1e]', 'bad number at character 4'],
    ['P[.]', 'bad number at character 3'],
    ['UNIT["m",1] X', 'trailing text at character 12'],
    ['UNIT["m",1]]', 'trailing text at character 11'],
    ['A[B[1]', 'unexpected end at character 6'],
    ['AXIS["X",EAST', 'unexpected end at character 13'],
    ['P[#]', 'unexpected "#" at character 2'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseWkt(text)).toThrow(new Error(`Not valid WKT: ${message}`));
  });
});

describe('WKT lookups', () => {
  const root = parseWkt('ROOT[A[B[X[1]]],X[2],Y[3]]');

  it('child looks at direct children only, first match of any keyword given', () => {
    expect(child(root, 'X')?.values).toEqual([2]);
    expect(child(root, 'Y', 'X')?.values).toEqual([2]);
    expect(child(root, 'B')).toBeUndefined();
    expect(child(root)).toBeUndefined();
  });

  it('find searches depth first: a match inside an earlier child before a later sibling', () => {
    expect(find(root, 'X')?.values).toEqual([1]);
    expect(find(root, 'B')?.keyword).toBe('B');
    expect(find(root, 'Y', 'B')?.keyword).toBe('B');
    expect(find(root, 'ROOT')).toBeUndefined();
    expect(find(root, 'Z')).toBeUndefined();
    expect(find(parseWkt(ESRI_NAD83), 'SPHEROID')?.values).toEqual(['GRS_1980', 6378137, 298.257222101]);
  });
});
