/**
 * Today's date on a Florida (Eastern) clock, as YYYY-MM-DD. The API refuses dates after Florida's
 * today, and from 7 pm EST (8 pm EDT) the UTC date is already tomorrow, so tests that send "today"
 * must send this, not the UTC date. Computed here with its own formatter, apart from the product's.
 */
export function floridaToday(now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}
