/**
 * Florida's civil calendar. Deadlines in the statute are Florida dates, so "today" is the date
 * on a Florida clock, not in UTC (from 8 pm EDT / 7 pm EST the UTC date is already tomorrow).
 * Eastern time is used for the whole state: it is the time of Tallahassee, where DEP and the
 * Legislature sit, and of most of the state. The Panhandle west of the Apalachicola River keeps
 * Central time, an hour behind, so there "today" turns an hour later than this clock says.
 */
export const FLORIDA_TIME_ZONE = 'America/New_York';

// en-CA formats dates as YYYY-MM-DD. Built on first use (the first time-zone formatter of a process
// loads the zone data: milliseconds a cold start need not spend), then reused.
let floridaDateFormat: Intl.DateTimeFormat | undefined;

let lastMinute = Number.NaN;
let lastDate = '';

/** The Florida (Eastern) calendar date of an instant, as YYYY-MM-DD. */
export function floridaDate(instant: Date): string {
  // Formatting costs microseconds on every request; the date cannot change within a minute.
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute !== lastMinute) {
    floridaDateFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: FLORIDA_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
    lastDate = floridaDateFormat.format(instant);
    lastMinute = minute;
  }
  return lastDate;
}
