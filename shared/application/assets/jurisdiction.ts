import { resolveApplicant } from '../../domain/compliance/inputs';

/** A Florida county or municipality by name ("Monroe County", "City of Key West") or id (`county:12087`). */
export function requireJurisdiction(text: string, location: 'body' | 'query' | 'path'): { id: string; name: string } {
  const { id, display_name: name } = resolveApplicant({ jurisdiction: text }, location, 'ids');
  return { id, name };
}
