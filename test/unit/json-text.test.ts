import { parseJsonText, ReservedNameError } from '../../shared/domain/json-text';
import { matchColumns } from '../../shared/domain/assets/columns';

describe('JSON input with prototype names', () => {
  it('parses ordinary JSON as JSON.parse does, constructor and prototype included', () => {
    for (const text of ['{"a":[1,{"b":null}]}', '{"constructor":"x","prototype":{"toString":1}}', '"\\u0041"', '[]']) {
      expect(parseJsonText(text)).toEqual(JSON.parse(text));
    }
    expect(Object.getPrototypeOf(parseJsonText('{"constructor":"x"}'))).toBe(Object.prototype);
  });

  it('refuses __proto__ as a name at any depth, also written with escapes', () => {
    for (const text of ['{"__proto__":{"polluted":1}}', '{"a":{"b":[{"__proto__":1}]}}', '{"\\u005f\\u005fproto\\u005f\\u005f":{}}']) {
      expect(() => parseJsonText(text)).toThrow(ReservedNameError);
    }
    // As a value it is only text.
    expect(parseJsonText('{"name":"__proto__"}')).toEqual({ name: '__proto__' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('still reports malformed JSON as a SyntaxError', () => {
    expect(() => parseJsonText('{"__proto__":')).toThrow(SyntaxError);
  });
});

describe('column names that every object has', () => {
  it('a file column named constructor or toString is matched only when the column_map names it', () => {
    const headers = ['constructor', 'toString', 'Name', 'lat', 'lon'];
    expect(matchColumns(headers).name).toBe('Name');
    expect(matchColumns(headers, { constructor: 'name' as const }).name).toBe('constructor');
    expect(matchColumns(headers).other_columns).toEqual(['constructor', 'toString']);
  });
});
