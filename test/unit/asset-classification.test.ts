import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { ASSET_TYPES, classifyAsset } from '../../shared/domain/assets/classification';

const DATA = path.join(__dirname, '../../shared/data/assets');
const rows = (file: string): Record<string, string>[] => parse(readFileSync(path.join(DATA, file)), { columns: true, bom: true });
const rules = JSON.parse(readFileSync(path.join(DATA, 'classification-rules.json'), 'utf8'));

/** s. 380.093(2)(a), as listed in DOMAIN §2: 8 + 9 + 17 + 6 = 40 asset types in 4 categories. */
const STATUTE_COUNTS = { transportation: 8, critical_infrastructure: 9, community_emergency: 17, natural_cultural_historical: 6 };

describe('classification rules (data)', () => {
  it('cover the 40 statute asset types, each once, in the 4 categories', () => {
    const types = rules.rules.map((r: { asset_type: string }) => r.asset_type);
    expect(new Set(types).size).toBe(40);
    const perCategory: Record<string, number> = {};
    for (const rule of rules.rules) perCategory[rule.category] = (perCategory[rule.category] ?? 0) + 1;
    expect(perCategory).toEqual(STATUTE_COUNTS);
    expect(ASSET_TYPES).toHaveLength(40);
  });

  it('compile: every pattern is a valid regular expression', () => {
    for (const rule of rules.rules) for (const pattern of rule.patterns) expect(() => new RegExp(pattern, 'i')).not.toThrow();
  });
});

describe('classifyAsset on free text', () => {
  const cases: [string, string, string][] = [
    ['GENERAL ACUTE CARE', 'hospitals', 'community_emergency'],
    ['Lift Station #12', 'wastewater_treatment_facilities_and_lift_stations', 'critical_infrastructure'],
    ['LS 4', 'wastewater_treatment_facilities_and_lift_stations', 'critical_infrastructure'],
    ['Stormwater Pump Station', 'stormwater_treatment_facilities_and_pump_stations', 'critical_infrastructure'],
    ['Water Treatment Plant', 'drinking_water_facilities', 'critical_infrastructure'],
    ['Wastewater Treatment Plant', 'wastewater_treatment_facilities_and_lift_stations', 'critical_infrastructure'],
    ['Booster Pump Station', 'water_utility_conveyance_systems', 'critical_infrastructure'],
    ['FPL Substation', 'electric_production_and_supply_facilities', 'critical_infrastructure'],
    ['Class I Landfill', 'solid_and_hazardous_waste_facilities', 'critical_infrastructure'],
    ['Naval Air Station Key West', 'military_installations', 'critical_infrastructure'],
    ['Cell Tower', 'communications_facilities', 'critical_infrastructure'],
    ['Debris Management Site', 'disaster_debris_management_sites', 'critical_infrastructure'],
    ['Key West International Airport', 'airports', 'transportation'],
    ['Seven Mile Bridge', 'bridges', 'transportation'],
    ['FEC Railroad Bridge', 'railroad_bridges', 'transportation'],
    ['Bus Transfer Facility', 'bus_terminals', 'transportation'],
    ['Port of Miami', 'ports', 'transportation'],
    ['US 1', 'major_roadways', 'transportation'],
    ['City Marina', 'marinas', 'transportation'],
    ['Amtrak Station', 'rail_facilities', 'transportation'],
    ['Fire Station 7', 'fire_stations', 'community_emergency'],
    ['Sheriff Substation', 'law_enforcement_facilities', 'community_emergency'],
    ['Emergency Operations Center', 'emergency_operation_centers', 'community_emergency'],
    ['Special Needs Shelter', 'risk_shelter_inventory', 'community_emergency'],
    ['City Hall', 'local_government_facilities', 'community_emergency'],
    ['Housing Authority Apartments', 'affordable_public_housing', 'community_emergency'],
    ['County Jail', 'correctional_facilities', 'community_emergency'],
    ['Florida Keys Community College', 'colleges', 'community_emergency'],
    ['Florida International University', 'universities', 'community_emergency'],
    ['ELEMENTARY AND SECONDARY SCHOOLS', 'schools', 'community_emergency'],
    ['Nursing Home', 'health_care_facilities', 'community_emergency'],
    ['Wetland Mitigation Area', 'wetlands', 'natural_cultural_historical'],
    ['NATURE PARK / PRESERVE', 'parks', 'natural_cultural_historical'],
    ['Aquatic Preserve', 'conservation_lands', 'natural_cultural_historical'],
    ['Historic District', 'historical_and_cultural_assets', 'natural_cultural_historical'],
    ['Living Shoreline', 'shorelines', 'natural_cultural_historical'],
    ['Lake Okeechobee', 'surface_waters', 'natural_cultural_historical'],
  ];
  it.each(cases)('"%s" → %s (%s)', (text, assetType, category) => {
    const result = classifyAsset([{ field: 'TYPE', text }]);
    expect(result).toMatchObject({ asset_type: assetType, category, matched_field: 'TYPE', matched_text: text });
    expect(result.rule.startsWith(`${assetType}:`)).toBe(true);
  });

  it('falls back from the type to the name, and reports what it cannot classify', () => {
    const byName = classifyAsset([{ field: 'TYPE', text: 'MILITARY' }, { field: 'NAME', text: 'NAVAL HOSPITAL PENSACOLA' }]);
    expect(byName).toMatchObject({ asset_type: 'hospitals', matched_field: 'NAME' });
    expect(classifyAsset([{ field: 'TYPE', text: 'Widget' }, { field: 'NAME', text: 'Thing 4' }])).toMatchObject({ asset_type: null, category: null, rule: 'unclassified' });
  });

  it('keeps the declared category: rules of other categories are skipped, and no match keeps the category', () => {
    expect(classifyAsset([{ field: 'TYPE', text: 'Fire Station Road Park' }], 'natural_cultural_historical')).toMatchObject({ asset_type: 'parks' });
    expect(classifyAsset([{ field: 'TYPE', text: 'Widget' }], 'transportation')).toMatchObject({ asset_type: null, category: 'transportation', rule: 'default_category' });
  });
});

/** Real inventories (copies of the reference collection, see shared/data/SOURCES.md), classified by their own columns. */
describe('classification of real Florida inventories', () => {
  it('HIFLD hospitals (349 in Florida): all community facilities; every GENERAL ACUTE CARE row a hospital by its TYPE', () => {
    const hospitals = rows('fl-hospitals-hifld.csv');
    expect(hospitals).toHaveLength(349);
    const results = hospitals.map((h) => ({ h, c: classifyAsset([{ field: 'TYPE', text: h.TYPE! }, { field: 'NAME', text: h.NAME! }]) }));
    expect(results.every(({ c }) => c.category === 'community_emergency')).toBe(true);
    for (const { h, c } of results.filter(({ h }) => h.TYPE === 'GENERAL ACUTE CARE')) {
      expect(c).toMatchObject({ asset_type: 'hospitals', matched_field: 'TYPE' });
      expect(h.TYPE).toBe('GENERAL ACUTE CARE');
    }
    const hospitalShare = results.filter(({ c }) => c.asset_type === 'hospitals').length / results.length;
    expect(hospitalShare).toBeGreaterThan(0.9);
    expect(results.every(({ c }) => c.asset_type === 'hospitals' || c.asset_type === 'health_care_facilities')).toBe(true);
  });

  it('HIFLD public schools: numeric TYPE codes do not match, NAICS_DESC does', () => {
    const schools = rows('fl-public-schools-sample.csv');
    for (const s of schools) {
      const c = classifyAsset([{ field: 'TYPE', text: s.TYPE! }, { field: 'NAICS_DESC', text: s.NAICS_DESC! }, { field: 'NAME', text: s.NAME! }]);
      expect(c).toMatchObject({ asset_type: 'schools', matched_field: 'NAICS_DESC' });
    }
  });

  it('IMLS library outlets: the outlet-type code classifies branches whose names lack "library"', () => {
    const outlets = rows('fl-library-outlets-imls.csv');
    const withoutWord = outlets.filter((o) => !/LIBRAR/.test(o.LIBNAME!));
    expect(withoutWord.length).toBeGreaterThan(50);
    for (const o of outlets) {
      const c = classifyAsset([{ field: 'C_OUT_TY', text: o.C_OUT_TY! }, { field: 'LIBNAME', text: o.LIBNAME! }]);
      expect(c).toMatchObject({ asset_type: 'community_centers', rule: 'community_centers:code:c_out_ty' });
    }
  });

  it('FGDL parks: every TYPE is a park', () => {
    const parks = rows('fl-parks-fgdl-sample.csv');
    for (const p of parks) expect(classifyAsset([{ field: 'TYPE', text: p.TYPE! }])).toMatchObject({ asset_type: 'parks', category: 'natural_cultural_historical' });
  });
});
