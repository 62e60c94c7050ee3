import coastalCounties from '../../data/v1/fl-coastal-counties.json';
import type { COASTAL_SETTINGS } from './vocabulary';

const COASTAL_FIPS: ReadonlySet<string> = new Set(coastalCounties.counties.map((c) => c.fips));

/** Whether a Florida county (5-digit FIPS) is one of the 35 whose boundary reaches the open coast. */
export function isCoastalCounty(fips: string): boolean {
  return COASTAL_FIPS.has(fips);
}

/** `noncoastal`: a jurisdiction without tidal exposure (2022 amendment); `coastal` otherwise. */
export type CoastalSetting = typeof COASTAL_SETTINGS[number];

export interface SettingDecision {
  setting: CoastalSetting;
  basis: string;
}

/**
 * Whether a jurisdiction has tidal exposure, for the 2022 amendment's noncoastal checklist: a
 * county or municipality in one of Florida's 35 counties on the open coast is coastal; elsewhere
 * noncoastal. A municipality inland in a coastal county stays coastal (the full checklist) — the
 * data here place municipalities by county only.
 */
export function settingOf(jurisdiction: { county_fips: string; display_name: string } | undefined): SettingDecision {
  if (!jurisdiction) {
    return { setting: 'coastal', basis: 'No jurisdiction given: the full checklist. Send jurisdiction to get the noncoastal variant where it applies.' };
  }
  const coastal = isCoastalCounty(jurisdiction.county_fips);
  return {
    setting: coastal ? 'coastal' : 'noncoastal',
    basis: `${jurisdiction.display_name} lies in ${coastal ? 'one of' : 'none of'} Florida's 35 counties whose boundary reaches the open coast (county ${jurisdiction.county_fips}). Coastal counties: ${coastalCounties.method}${coastal ? '' : ' No tidal exposure is assumed; a jurisdiction on a tidal river (e.g. the lower St. Johns) should still analyse tidal flooding and surge.'}`,
  };
}
