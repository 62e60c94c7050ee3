import { InvalidCursorError } from '../../shared/domain/errors';
import { decodeListCursor, encodeListCursor } from '../../shared/domain/list-cursor';
import { asHttpError } from '../../shared/http/domain-problems';

describe('the list cursor codec', () => {
  const readPosition = ({ after, f }: Record<string, unknown>) => (typeof after === 'string' && f === 'k' ? after : undefined);

  it('round-trips what a list puts in it, opaque and URL-safe', () => {
    const cursor = encodeListCursor({ after: 'IS-700.b', f: 'k' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor, readPosition)).toBe('IS-700.b');
  });

  it.each([
    ['not base64url JSON', 'not a cursor!'],
    ['JSON that is not an object', Buffer.from('[1,2]').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
    ['a cursor of other filters', encodeListCursor({ after: 'IS-700.b', f: 'other' })],
  ])('refuses %s with the 400 problem every list answers', (_name, cursor) => {
    let error: unknown;
    try {
      decodeListCursor(cursor, readPosition);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidCursorError);
    expect(asHttpError(error)).toMatchObject({ status: 400, code: 'invalid_request', extra: { errors: [{ field: 'cursor', in: 'query' }] } });
  });
});
