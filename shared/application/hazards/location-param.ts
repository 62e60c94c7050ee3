import { invalidField } from '../../domain/errors';
import { resolveLocation } from '../../domain/hazards/location';

/** `location` resolved to a point, or refused naming the parameter. */
export function locationParam(text: string, field = 'location', where: 'query' | 'body' = 'query') {
  const resolved = resolveLocation(text);
  if (!resolved.ok) throw invalidField(field, where, resolved.message);
  return resolved;
}
