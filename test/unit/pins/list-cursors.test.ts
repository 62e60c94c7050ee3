import { decodeCursor, encodeCursor } from '../../../shared/adapters/dynamo-cursor';
import { isConditionalCheckFailed } from '../../../shared/adapters/conditional-write';
import { InvalidCursorError } from '../../../shared/domain/errors';

/** List cursors are opaque, bound to the partition they were issued for, and bounded in size. */
const EXPECTED = { pk: 'ACCOUNT#a1' };
const raw = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('list cursors', () => {
  it('round-trips a key of the expected partition', () => {
    const key = { pk: 'ACCOUNT#a1', sk: 'ASSESSMENT#va_1', gsi1pk: 'x' };
    expect(decodeCursor(encodeCursor(key), EXPECTED)).toEqual(key);
    expect(encodeCursor(key)).toBe(raw(key));
  });

  it('has no cursor for the last page and reads none as the first page', () => {
    expect(encodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor(undefined, EXPECTED)).toBeUndefined();
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor!'],
    ['a JSON string', raw('ACCOUNT#a1')],
    ['null', raw(null)],
    ['an array', raw([{ pk: 'ACCOUNT#a1', sk: 's' }])],
    ['another account\'s partition', raw({ pk: 'ACCOUNT#a2', sk: 's' })],
    ['no sort key', raw({ pk: 'ACCOUNT#a1' })],
    ['a number for the sort key', raw({ pk: 'ACCOUNT#a1', sk: 5 })],
    ['a non-string value', raw({ pk: 'ACCOUNT#a1', sk: 's', n: 1 })],
    ['a value over 512 characters', raw({ pk: 'ACCOUNT#a1', sk: 's'.repeat(513) })],
    ['more than 6 attributes', raw({ pk: 'ACCOUNT#a1', sk: 's', a: '1', b: '2', c: '3', d: '4', e: '5' })],
  ])('refuses %s', (_label, cursor) => {
    expect(() => decodeCursor(cursor, EXPECTED)).toThrow(InvalidCursorError);
  });

  it('accepts the limits themselves: 6 attributes, 512 characters', () => {
    const key = { pk: 'ACCOUNT#a1', sk: 's'.repeat(512), a: '1', b: '2', c: '3', d: '4' };
    expect(decodeCursor(raw(key), EXPECTED)).toEqual(key);
  });
});

describe('conditional writes', () => {
  it('tells a failed condition from every other error', () => {
    expect(isConditionalCheckFailed(Object.assign(new Error('x'), { name: 'ConditionalCheckFailedException' }))).toBe(true);
    expect(isConditionalCheckFailed(Object.assign(new Error('x'), { name: 'ProvisionedThroughputExceededException' }))).toBe(false);
    expect(isConditionalCheckFailed(undefined)).toBe(false);
  });
});
