const MAX_SLUG_LENGTH = 60;

/** Lower-case without accents, so "Résilience" and "resilience" are the same word. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/**
 * A stable, URL-safe id from a title: lower-case ASCII words joined by hyphens, cut at a word
 * boundary. Used when a catalogue entry brings no id of its own.
 */
export function resourceSlug(title: string): string {
  const slug = foldText(title)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const cut = slug.slice(0, MAX_SLUG_LENGTH + 1);
  const boundary = cut.lastIndexOf('-');
  return (boundary > 0 ? cut.slice(0, boundary) : cut.slice(0, MAX_SLUG_LENGTH)).replace(/-+$/, '');
}
