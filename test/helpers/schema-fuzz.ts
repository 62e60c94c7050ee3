/**
 * Seeded request generation from an OpenAPI document: values drawn from each schema (types,
 * enums, ranges, lengths), then broken on purpose (wrong types, huge and odd strings, missing and
 * unknown fields, bad JSON) so that every validation path and handler sees hostile input.
 */

type Json = Record<string, any>;

export class Fuzzer {
  constructor(private readonly doc: Json, readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  int(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  resolve(schema: Json | undefined): Json {
    let current = schema ?? {};
    for (let hops = 0; current.$ref && hops < 20; hops += 1) {
      current = String(current.$ref).slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<Json>((node, key) => node?.[key], this.doc) ?? {};
    }
    return current;
  }

  /** A value the schema describes (as far as types, enums, ranges and lengths go; patterns are not followed). */
  valueOf(raw: Json | undefined, depth = 0): unknown {
    const schema = this.resolve(raw);
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum);
    const variants = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(variants)) return this.valueOf(this.pick(variants), depth);
    if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((part: Json) => this.valueOf(part, depth)).filter((v: unknown) => v && typeof v === 'object'));
    const type = Array.isArray(schema.type) ? this.pick(schema.type.filter((t: string) => t !== 'null').concat(schema.type.length > 1 && this.random() < 0.1 ? ['null'] : [])) : schema.type;
    switch (type) {
      case 'null': return null;
      case 'boolean': return this.random() < 0.5;
      case 'integer':
      case 'number': {
        const low = Math.max(Number(schema.minimum ?? schema.exclusiveMinimum ?? -1000), -1e6);
        const high = Math.min(Number(schema.maximum ?? schema.exclusiveMaximum ?? 1000), 1e6);
        const value = low + this.random() * (high - low);
        return type === 'integer' ? Math.round(value) : Math.round(value * 1e4) / 1e4;
      }
      case 'string': return this.stringOf(schema);
      case 'array': {
        if (depth > 4) return [];
        const count = this.int(Number(schema.minItems ?? 0), Math.min(Number(schema.maxItems ?? 3), 3));
        return Array.from({ length: count }, () => this.valueOf(schema.items, depth + 1));
      }
      default: {
        if (depth > 4 || !schema.properties) return {};
        const required = new Set<string>(schema.required ?? []);
        return Object.fromEntries(Object.entries<Json>(schema.properties)
          .filter(([name]) => required.has(name) || this.random() < 0.6)
          .map(([name, property]) => [name, this.valueOf(property, depth + 1)]));
      }
    }
  }

  private stringOf(schema: Json): string {
    switch (schema.format) {
      case 'date': return `20${this.int(20, 35)}-0${this.int(1, 9)}-${this.int(10, 28)}`;
      case 'date-time': return new Date(Date.UTC(2026, this.int(0, 11), this.int(1, 28))).toISOString();
      case 'uri':
      case 'url': return this.pick(['https://example.org/a.pdf', 'https://monroecounty-fl.gov/va/report.pdf']);
      case 'email': return `user${this.int(1, 9999)}@example.org`;
      case 'binary': return 'facility_id,name,type,latitude,longitude\nA1,Fire Station 1,Fire Station,24.55,-81.78\n';
      default: {
        const length = this.int(Number(schema.minLength ?? 1), Math.min(Number(schema.maxLength ?? 24), 24));
        return this.pick(['Monroe County', 'Key West', 'intermediate', '24.55,-81.78', 'x'.repeat(Math.max(length, 1)), String(this.int(0, 99999))]);
      }
    }
  }

  /** A hostile value of any kind. */
  hostile(): unknown {
    return this.pick<() => unknown>([
      () => 'x'.repeat(this.int(1, 3) * 100_000),
      () => '\u0000\u0001\u202e\ud800\uffff',
      () => '👩🏽‍🚒🌊'.repeat(this.int(1, 200)),
      () => 'ǅ\u0301\u200b\u00a0 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
      () => -1,
      () => 1e308,
      () => -0,
      () => Number.MAX_SAFE_INTEGER + 2,
      () => true,
      () => null,
      () => [],
      () => [null, 1, 'a', {}],
      () => ({}),
      // Own `__proto__` and `constructor` keys, as JSON.parse makes them.
      () => JSON.parse('{"$gt":"","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
      () => '../../etc/passwd',
      () => '<script>alert(1)</script>',
      () => "' OR 1=1 --",
      () => '2024-02-30',
      () => 'NaN',
      () => Array.from({ length: 5000 }, (_, i) => i),
    ])();
  }

  /** The value with one field somewhere inside it replaced, removed or added. */
  mutate(value: unknown): unknown {
    if (value === null || typeof value !== 'object' || this.random() < 0.15) return this.hostile();
    const copy: any = Array.isArray(value) ? [...value] : { ...value };
    const keys = Object.keys(copy);
    const action = keys.length === 0 ? 'add' : this.pick(['replace', 'replace', 'deeper', 'remove', 'add']);
    if (action === 'add') {
      if (Array.isArray(copy)) copy.push(this.hostile());
      else Object.defineProperty(copy, this.pick(['unknown_field', '__proto__', 'constructor', 'id', 'account_id']), { value: this.hostile(), enumerable: true, writable: true, configurable: true });
    } else {
      const key = this.pick(keys);
      if (action === 'remove') delete copy[key];
      else if (action === 'deeper') copy[key] = this.mutate(copy[key]);
      else copy[key] = this.hostile();
    }
    return copy;
  }
}
