import { SURVEYED_ELEVATION_FIELDS, type SurveyedElevationField } from './surveyed-columns';

/**
 * Flexible column matching: the headers local governments and GIS exports actually use, mapped to
 * the fields of an asset. Headers are compared after normalisation (lower case, runs of other
 * characters as `_`), and for each field the first alias present wins. OBJECTID / FID are
 * deliberately not identifiers: they are row numbers that change between exports.
 */
export const COLUMN_ALIASES = {
  name: ['name', 'asset_name', 'facility_name', 'facility', 'site_name', 'feature_name', 'fac_name', 'facname', 'facilityname', 'libname', 'station_name', 'common_name', 'title', 'label'],
  asset_type: ['asset_type', 'assettype', 'type_of_asset', 'facility_type', 'facilitytype', 'fac_type', 'factype', 'feature_type', 'subtype', 'type', 'asset_class', 'class', 'category', 'use', 'naics_desc', 'c_out_ty', 'descript', 'description'],
  latitude: ['lat', 'latitude', 'y', 'lat_dd', 'latitude_dd', 'point_y', 'y_coord', 'ycoord', 'y_coordinate', 'northing'],
  longitude: ['lon', 'lng', 'long', 'longitude', 'x', 'long_dd', 'lon_dd', 'longitude_dd', 'point_x', 'x_coord', 'xcoord', 'x_coordinate', 'easting'],
  source_id: ['asset_id', 'assetid', 'source_id', 'facility_id', 'facilityid', 'fac_id', 'facid', 'site_id', 'siteid', 'id', 'libid', 'ncesid', 'gcid', 'globalid', 'guid', 'uid', 'unique_id'],
  address: ['address', 'street_address', 'site_address', 'location_address', 'addr', 'street'],
  city: ['city', 'municipality', 'town'],
  county: ['county', 'cnty', 'county_name'],
  owner: ['owner', 'ownership', 'owned_by', 'operator', 'agency'],
} as const;

export type MappedField = keyof typeof COLUMN_ALIASES;
export const MAPPED_FIELDS = Object.keys(COLUMN_ALIASES) as [MappedField, ...MappedField[]];

/** What a `column_map` can name: an asset field, or a surveyed elevation kept under its standard name. */
export type ColumnMapTarget = MappedField | SurveyedElevationField;
export const COLUMN_MAP_TARGETS = [...MAPPED_FIELDS, ...SURVEYED_ELEVATION_FIELDS] as [ColumnMapTarget, ...ColumnMapTarget[]];

export interface ColumnMapping {
  name?: string;
  latitude?: string;
  longitude?: string;
  source_id?: string;
  address?: string;
  city?: string;
  county?: string;
  owner?: string;
  /** Every present type-like column, in alias order: the classifier tries them in turn. */
  type_columns: string[];
  /** Columns `column_map` names as a surveyed elevation, kept under that standard name. */
  surveyed: { column: string; field: SurveyedElevationField }[];
  /** Columns not mapped to a field, kept as attributes. */
  other_columns: string[];
}

export function normalizeHeader(header: string): string {
  return header.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** Duplicate or blank headers get a suffix (`name_2`, `column_3`), so no column silently overwrites another. */
export function uniqueHeaders(headers: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return headers.map((raw, i) => {
    const header = String(raw ?? '').trim() || `column_${i + 1}`;
    const count = (seen.get(header) ?? 0) + 1;
    seen.set(header, count);
    return count === 1 ? header : `${header}_${count}`;
  });
}

/** A `column_map`: file column → field, taking precedence over the aliases. */
export type ColumnMap = Record<string, ColumnMapTarget>;

export function matchColumns(headers: readonly string[], columnMap: ColumnMap = {}): ColumnMapping {
  const byNormalized = new Map<string, string>();
  for (const header of headers) {
    const key = normalizeHeader(header);
    if (key && !byNormalized.has(key)) byNormalized.set(key, header);
  }
  const mapped = (field: ColumnMapTarget) => Object.keys(columnMap).filter((column) => columnMap[column] === field && headers.includes(column));
  const first = (field: MappedField) => mapped(field)[0] ?? COLUMN_ALIASES[field].map((alias) => byNormalized.get(alias)).find((h) => h !== undefined && !Object.hasOwn(columnMap, h));
  const mapping: ColumnMapping = {
    name: first('name'),
    latitude: first('latitude'),
    longitude: first('longitude'),
    source_id: first('source_id'),
    address: first('address'),
    city: first('city'),
    county: first('county'),
    owner: first('owner'),
    type_columns: [...new Set([...mapped('asset_type'), ...COLUMN_ALIASES.asset_type.map((alias) => byNormalized.get(alias)).filter((h): h is string => h !== undefined && !Object.hasOwn(columnMap, h))])],
    surveyed: SURVEYED_ELEVATION_FIELDS.flatMap((field) => mapped(field).map((column) => ({ column, field }))),
    other_columns: [],
  };
  const used = new Set<string>([...mapping.type_columns, ...mapping.surveyed.map(({ column }) => column), ...(['name', 'latitude', 'longitude', 'source_id', 'address', 'city', 'county', 'owner'] as const).map((f) => mapping[f]).filter((h): h is string => !!h)]);
  mapping.other_columns = headers.filter((h) => !used.has(h));
  return mapping;
}

/** The alias table as Markdown, for the OpenAPI description of the import routes. */
export function columnAliasesMarkdown(): string {
  return (Object.keys(COLUMN_ALIASES) as MappedField[])
    .map((field) => `- \`${field}\`: ${COLUMN_ALIASES[field].map((a) => `\`${a}\``).join(', ')}`)
    .join('\n');
}
