import { columnAliasesMarkdown, matchColumns, normalizeHeader, uniqueHeaders } from '../../shared/domain/assets/columns';
import { readSurveyed } from '../../shared/domain/assets/surveyed-columns';

describe('header normalisation', () => {
  it.each([
    [' Facility Name ', 'facility_name'],
    ['LAT (DD)', 'lat_dd'],
    ['__X__', 'x'],
    ['Point-Y', 'point_y'],
    ['Site  ID#', 'site_id'],
    ['ÉLEV', 'lev'],
    ['***', ''],
    ['ObjectID', 'objectid'],
  ])('%j → %j', (header, normalised) => {
    expect(normalizeHeader(header)).toBe(normalised);
  });
});

describe('unique headers', () => {
  it('numbers repeats from 2 and names blanks by their position', () => {
    expect(uniqueHeaders(['name', 'name', '', ' ', 'name', ' type '])).toEqual(['name', 'name_2', 'column_3', 'column_4', 'name_3', 'type']);
  });

  it('treats missing cells of a header row as blank', () => {
    expect(uniqueHeaders([undefined, null, 'a'] as unknown as string[])).toEqual(['column_1', 'column_2', 'a']);
  });

  it('keeps headers that differ only in case apart', () => {
    expect(uniqueHeaders(['Name', 'NAME'])).toEqual(['Name', 'NAME']);
  });
});

describe('column matching', () => {
  it('picks each field by the first alias present, whatever the header order', () => {
    const mapping = matchColumns(['OBJECTID', 'Type', 'FACILITY_TYPE', 'Facility', 'Name', 'X', 'Y', 'Latitude', 'Longitude', 'FID', 'Street', 'Address', 'Town', 'CNTY', 'Agency', 'GlobalID', 'Notes']);
    expect(mapping).toEqual({
      name: 'Name',
      latitude: 'Latitude',
      longitude: 'Longitude',
      source_id: 'GlobalID',
      address: 'Address',
      city: 'Town',
      county: 'CNTY',
      owner: 'Agency',
      type_columns: ['FACILITY_TYPE', 'Type'],
      surveyed: [],
      // Row numbers of an export (OBJECTID, FID) are not identifiers; X and Y lose to the named coordinates.
      other_columns: ['OBJECTID', 'Facility', 'X', 'Y', 'FID', 'Street', 'Notes'],
    });
  });

  it('leaves a field unset when no header matches, and keeps every header as an attribute', () => {
    expect(matchColumns(['Notes', 'Comments'])).toEqual({
      name: undefined, latitude: undefined, longitude: undefined, source_id: undefined, address: undefined, city: undefined, county: undefined, owner: undefined,
      type_columns: [], surveyed: [], other_columns: ['Notes', 'Comments'],
    });
  });

  it('takes the first of two headers that normalise alike', () => {
    const mapping = matchColumns(['Name', 'NAME', 'name ']);
    expect(mapping.name).toBe('Name');
    expect(mapping.other_columns).toEqual(['NAME', 'name ']);
  });

  it('lets column_map name a field\'s column over the aliases, and takes a mapped column out of the aliases', () => {
    const mapping = matchColumns(['Name', 'SITE', 'Label', 'Operator'], { SITE: 'name', Name: 'owner' });
    expect(mapping.name).toBe('SITE');
    expect(mapping.owner).toBe('Name');
    expect(mapping.other_columns).toEqual(['Label', 'Operator']);
  });

  it('ignores a column_map entry for a column the file does not have', () => {
    const mapping = matchColumns(['Name', 'Lat', 'Lon'], { Missing: 'name', Gone: 'latitude' });
    expect([mapping.name, mapping.latitude, mapping.longitude]).toEqual(['Name', 'Lat', 'Lon']);
  });

  it('puts type columns named by column_map first, then the aliases present, each once', () => {
    const mapping = matchColumns(['Type', 'Use', 'Kind', 'Category'], { Kind: 'asset_type', Category: 'asset_type' });
    expect(mapping.type_columns).toEqual(['Kind', 'Category', 'Type', 'Use']);
    expect(mapping.other_columns).toEqual([]);
  });

  it('keeps columns named as surveyed elevations under their standard names, in the standard order', () => {
    const mapping = matchColumns(['FFE', 'GRADE_M', 'Name'], { FFE: 'first_floor_elevation_ft_navd88', GRADE_M: 'ground_elevation_m_navd88' });
    expect(mapping.surveyed).toEqual([
      { column: 'GRADE_M', field: 'ground_elevation_m_navd88' },
      { column: 'FFE', field: 'first_floor_elevation_ft_navd88' },
    ]);
    expect(mapping.name).toBe('Name');
    expect(mapping.other_columns).toEqual([]);
  });

  it('lists the aliases as Markdown, one field per line', () => {
    const lines = columnAliasesMarkdown().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatch(/^- `name`: `name`, `asset_name`, /);
    expect(lines.map((line) => /^- `(\w+)`:/.exec(line)?.[1])).toEqual(['name', 'asset_type', 'latitude', 'longitude', 'source_id', 'address', 'city', 'county', 'owner']);
  });
});

describe('surveyed elevation cells', () => {
  // The US survey foot is 1200/3937 m by definition.
  const usFeet = (ft: number) => (ft * 1200) / 3937;

  it.each([
    ['ground_elevation_ft_navd88', 10, usFeet(10)],
    ['ground_elevation_ft_navd88', ' 12.5 ', usFeet(12.5)],
    ['first_floor_elevation_ft_navd88', '-3', usFeet(-3)],
    ['ground_elevation_m_navd88', 3.2, 3.2],
    ['first_floor_elevation_m_navd88', '0', 0],
  ] as const)('%s %j reads as its metres', (field, raw, metres) => {
    expect(readSurveyed(field, raw)).toEqual({ metres: expect.closeTo(metres, 12) });
  });

  it.each([undefined, null, '', '   '])('a blank cell (%j) is no reading', (raw) => {
    expect(readSurveyed('ground_elevation_m_navd88', raw)).toBeUndefined();
  });

  it.each([['abc'], ['12 ft'], ['0x10'], ['1,5'], [true], [Number.NaN], [Number.POSITIVE_INFINITY], [{}]])('%j is not a number', (raw) => {
    expect(readSurveyed('ground_elevation_ft_navd88', raw)).toEqual({ problem: 'invalid_number', message: 'Not a number: ground_elevation_ft_navd88 is an elevation in US survey feet, NAVD88.' });
    expect(readSurveyed('ground_elevation_m_navd88', raw)).toEqual({ problem: 'invalid_number', message: 'Not a number: ground_elevation_m_navd88 is an elevation in metres, NAVD88.' });
  });

  it('accepts Florida elevations from −10 m to 120 m inclusive, in either unit', () => {
    expect(readSurveyed('ground_elevation_m_navd88', -10)).toEqual({ metres: -10 });
    expect(readSurveyed('ground_elevation_m_navd88', 120)).toEqual({ metres: 120 });
    // 120 m is 393.7 US survey feet exactly (120 × 3937 / 1200).
    expect(readSurveyed('ground_elevation_ft_navd88', 393.7)).toEqual({ metres: expect.closeTo(usFeet(393.7), 12) });
    expect(readSurveyed('ground_elevation_ft_navd88', -32.8)).toEqual({ metres: expect.closeTo(usFeet(-32.8), 12) });
  });

  it.each([
    ['ground_elevation_m_navd88', -10.001, 'metres'],
    ['ground_elevation_m_navd88', 120.001, 'metres'],
    ['first_floor_elevation_ft_navd88', 393.71, 'US survey feet'],
    ['first_floor_elevation_ft_navd88', -32.85, 'US survey feet'],
    // An elevation in millimetres.
    ['ground_elevation_m_navd88', 2500, 'metres'],
  ] as const)('%s %d is out of range', (field, value, unit) => {
    expect(readSurveyed(field, value)).toEqual({
      problem: 'out_of_range',
      message: `${value} is not a Florida elevation in ${unit} (NAVD88 -10 to 120 m); check the unit the column_map names.`,
    });
  });
});
