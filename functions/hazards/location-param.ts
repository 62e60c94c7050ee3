import { HttpError } from '../../shared/http/problem';
import { resolveLocation } from '../../shared/domain/hazards/location';

/** `location` resolved to a point, or a 400 naming the parameter. */
export function locationParam(text: string, field = 'location', where: 'query' | 'body' = 'query') {
  const resolved = resolveLocation(text);
  if (!resolved.ok) throw new HttpError('invalid_request', resolved.message, { errors: [{ field, in: where, message: resolved.message }] });
  return resolved;
}
