import { createHash, type Hash } from 'node:crypto';
import type { Geometry } from 'geojson';
import { classifyAsset, normalizeTypeText, type AssetCategory, type Classification, type ClassifierInput } from './classification';
import { matchColumns, COLUMN_ALIASES, type ColumnMap, type ColumnMapping } from './columns';
import { readSurveyed } from './surveyed-columns';
import type { Reprojector } from './crs';
import { AssetFileError } from './file-error';
import { checkCoordinates, westSignLost } from './florida-extent';
import type { JurisdictionArea } from './jurisdiction-area';
import type { OutsideJurisdictionMode } from './import-options';
import { decimalFromText, notADecimalCoordinate } from '../decimal-text';
import { crossingMessage, isPolygonal, MAX_STORED_VERTICES, POLYGON_REPAIR_HINT, representativePoint, selfIntersection, storedGeometry, structuralProblems } from './geometry';
import { PROTOTYPE_NAME } from '../json-text';

/** One record of an input file, before validation. */
export interface SourceRecord {
  /** As the user sees it: the spreadsheet row (header = row 1), or the 1-based feature number. */
  row: number;
  properties: Record<string, unknown>;
  /** Features only: the geometry in WGS84 longitude/latitude, null when the feature has none. */
  geometry?: Geometry | null;
  /** Set when the reader could not make a record of this row (wrong field count, stray quote). */
  malformed?: string;
}

/** An asset as the import produces it; the store adds versioning and vulnerability. */
export interface ImportedAsset {
  asset_id: string;
  jurisdiction_id: string;
  name: string;
  category: AssetCategory | 'unclassified';
  asset_type: string | null;
  /** The type text of the file (first type-like column with a value). */
  source_type: string | null;
  classification: Classification;
  lon: number;
  lat: number;
  geometry_type: Geometry['type'] | 'Point';
  /** Lines and areas whole (WGS84); null (or absent, on assets stored before) for a point, whose lon/lat are its geometry. */
  geometry?: Geometry | null;
  source_id: string | null;
  address: string | null;
  city: string | null;
  county: string | null;
  owner: string | null;
  attributes: Record<string, string | number | boolean>;
  /** Hash of the fields above: an unchanged re-import writes nothing. */
  content_hash: string;
}

/** Where a row is: its representative point, and its whole geometry when it is a line or an area. */
interface Located {
  lon: number;
  lat: number;
  geometryType: ImportedAsset['geometry_type'];
  geometry: Geometry | null;
}

/** What validation established about a row, from which its asset is built. */
interface ValidRow {
  properties: Record<string, unknown>;
  mapping: ColumnMapping;
  name: string;
  point: Located;
  sourceId: string | null;
  sourceType: string | null;
  classification: Classification;
  /** What the asset id is derived from: the same identity, the same id. */
  identity: string;
}

export type RowErrorCode =
  | 'required' | 'invalid_number' | 'coordinate_order' | 'outside_florida' | 'out_of_range'
  | 'no_geometry' | 'invalid_geometry' | 'geometry_too_large' | 'duplicate' | 'malformed_row' | 'outside_jurisdiction';

export interface RowError {
  row: number;
  field: string;
  code: RowErrorCode;
  message: string;
}

export interface ImportSummary {
  total_rows: number;
  asset_count: number;
  categorization: {
    by_category: Record<string, number>;
    by_asset_type: Record<string, number>;
    unclassified: number;
  };
  validation: {
    accepted: number;
    rejected: number;
    errors: RowError[];
    errors_truncated: boolean;
    /** Rows imported with a remark (`outside_jurisdiction=warn`), the first 500. */
    warnings: RowError[];
    unclassified_types: { text: string; count: number }[];
    outside_jurisdiction: { mode: OutsideJurisdictionMode; rows: number; checked_against: string | null };
  };
  columns: Omit<ColumnMapping, 'other_columns'>;
}

const MAX_ATTRIBUTES = 40;
const MAX_TEXT = 300;
/** Column names are kept as attribute names on every asset, which must fit one DynamoDB item (400 KB). */
const MAX_COLUMN_NAME = 128;
const MAX_UNCLASSIFIED_TYPES = 100;
const MAX_CACHED_MAPPINGS = 100;

/** The first column whose name is too long to keep (a header cell holding data, or a damaged file) refuses the file. */
function assertColumnNames(names: readonly string[]): void {
  const index = names.findIndex((name) => name.length > MAX_COLUMN_NAME);
  if (index < 0) return;
  throw new AssetFileError('column_name_too_long', `Column ${index + 1} has a name of ${names[index]!.length.toLocaleString('en-US')} characters; column names are at most ${MAX_COLUMN_NAME}. Is the first row a header?`, {
    column: index + 1, length: names[index]!.length,
  });
}

/** A coordinate cell's problem, with the words the row error uses. */
type CoordinateProblem = { code: 'required' | 'invalid_number'; message: string };

/**
 * Spreadsheets give numbers, text with spaces, or empty cells: a finite number, or why not.
 * Plain code rather than a schema: this runs for every row of files of a million rows.
 */
function coordinate(value: unknown): number | CoordinateProblem {
  if (typeof value === 'number') return Number.isFinite(value) ? value : { code: 'invalid_number', message: 'Not a number' };
  if (value === null || value === undefined) return { code: 'required', message: 'Required' };
  if (typeof value !== 'string') return { code: 'invalid_number', message: 'Not a number' };
  const trimmed = value.trim();
  if (trimmed === '') return { code: 'required', message: 'Required' };
  const number = decimalFromText(trimmed);
  return Number.isFinite(number) ? number : { code: 'invalid_number', message: notADecimalCoordinate(trimmed) };
}

/** A text cell as stored: trimmed, at most MAX_TEXT characters, '' when absent. */
function cellText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim().slice(0, MAX_TEXT);
}

function hash(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

const SHA256_BLOCK = 64;

/**
 * HMAC-SHA256 with the key's inner and outer states computed once: each message then costs two
 * hash copies instead of a new HMAC (key padding and all) per row. Same output as `createHmac`.
 */
function hmacSha256(key: string): (message: string) => string {
  let bytes = Buffer.from(key, 'utf8');
  if (bytes.length > SHA256_BLOCK) bytes = createHash('sha256').update(bytes).digest();
  const padded = (pad: number) => {
    const block = Buffer.alloc(SHA256_BLOCK, pad);
    for (let i = 0; i < bytes.length; i++) block[i] = bytes[i]! ^ pad;
    return createHash('sha256').update(block);
  };
  const inner: Hash = padded(0x36);
  const outer: Hash = padded(0x5c);
  return (message) => outer.copy().update(inner.copy().update(message).digest()).digest('hex');
}

function attributeValue(value: unknown): string | number | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  const text = String(value).trim();
  return text === '' ? undefined : text.slice(0, MAX_TEXT);
}

const COORDINATE_MESSAGES = {
  coordinate_order: 'Latitude and longitude look swapped: the point is in Florida only with the two exchanged.',
  outside_florida: 'The point is outside Florida (lon −87.7…−79.8, lat 24.3…31.1).',
  out_of_range: 'Not a longitude/latitude in degrees (WGS84).',
} as const;

/**
 * Validates, normalises and classifies the records of one file, one at a time (only counters, the
 * first errors and the identities seen are kept, or in a second pass the rows the first found
 * repeated), and decides at the end whether the file as a whole is importable. Asset ids are
 * stable per jurisdiction and source id (or, without an id column, per name + type + position), so
 * a re-import updates instead of duplicating; they are keyed with the account's own random
 * `idKey`, so the same row gives another id in every account and no id can be guessed from public
 * data.
 */
export class AssetRowProcessor {
  private mapping?: ColumnMapping;
  private readonly featureMappings = new Map<string, ColumnMapping>();
  private readonly seen = new Set<string>();
  /** Rows this processor found repeating an earlier row (when it keeps the identities itself). */
  private readonly duplicates = new Set<number>();
  private readonly errors: RowError[] = [];
  private readonly warnings: RowError[] = [];
  /** The row being validated and its errors so far (reused: validation is synchronous, one row at a time). */
  private row = 0;
  private readonly rowErrors: RowError[] = [];
  private outsideArea = 0;
  private errorCount = 0;
  private total = 0;
  private accepted = 0;
  private withCoordinates = 0;
  private swapped = 0;
  private outside = 0;
  /** Rows outside Florida only for a longitude without its minus sign. */
  private unsignedWest = 0;
  /** Rows outside Florida whose x and y are both beyond any degree value: eastings and northings. */
  private projectedLooking = 0;
  private readonly byCategory: Record<string, number> = {};
  private readonly byType: Record<string, number> = {};
  private unclassified = 0;
  private readonly unclassifiedTypes = new Map<string, number>();
  private readonly assetIdHmac: (message: string) => string;

  constructor(private readonly options: {
    jurisdictionId: string;
    /** The account's secret asset-id key (AssetStore.idKey). */
    idKey: string;
    category?: AssetCategory;
    /** Features carry geometry; tables carry coordinate columns. */
    hasGeometry: boolean;
    /** The file's columns when the reader knows them up front (features vary in properties). */
    headers?: string[];
    maxReportedErrors?: number;
    /** The jurisdiction's area; rows outside it are handled per `outsideJurisdiction` (default reject). */
    area?: JurisdictionArea;
    outsideJurisdiction?: OutsideJurisdictionMode;
    /** `column_map`: file column → field, ahead of the aliases. */
    columnMap?: ColumnMap;
    /** Tables in a projected system (`crs`): their x/y (easting/northing) columns to WGS84. */
    reproject?: Reprojector;
    /**
     * The rows an earlier pass over the same file found repeating an earlier row
     * (`duplicateRows`): given, those are the duplicates, and no identity is kept.
     */
    knownDuplicates?: ReadonlySet<number>;
  }) {
    this.assetIdHmac = hmacSha256(options.idKey);
  }

  /** The asset of a valid record; invalid records are counted and reported, never thrown. */
  process(record: SourceRecord): ImportedAsset | undefined {
    const row = this.validate(record);
    return row && this.asset(row);
  }

  /**
   * Validates, classifies and counts a record as `process` does, without building its asset (nor
   * hashing it): a validation pass needs the verdicts and the report only.
   */
  check(record: SourceRecord): boolean {
    return this.validate(record) !== undefined;
  }

  private validate(record: SourceRecord): ValidRow | undefined {
    this.total++;
    this.row = record.row;
    this.rowErrors.length = 0;
    if (record.malformed !== undefined) {
      this.reject('(row)', 'malformed_row', record.malformed);
      return this.rejectRow();
    }
    const mapping = this.mappingFor(record.properties);
    if (!mapping.name) {
      this.reject('name', 'required', 'The feature has no name attribute.');
      return this.rejectRow();
    }

    const p = record.properties;
    const name = cellText(p[mapping.name]);
    if (name === '') this.reject(mapping.name, 'required', 'Required');

    const point = this.locate(record, mapping);
    if (point && this.outsideJurisdiction(point)) {
      const message = `The position is outside ${this.options.area!.description}.`;
      const field = this.positionField(mapping);
      if ((this.options.outsideJurisdiction ?? 'reject') === 'reject') this.reject(field, 'outside_jurisdiction', message);
      else if (this.warnings.length < (this.options.maxReportedErrors ?? 500)) this.warnings.push({ row: record.row, field, code: 'outside_jurisdiction', message });
    }
    for (const { column, field } of mapping.surveyed) {
      const reading = readSurveyed(field, p[column]);
      if (reading && 'problem' in reading) this.reject(column, reading.problem, reading.message);
    }
    if (!point || this.rowErrors.length > 0) return this.rejectRow();
    const sourceId = mapping.source_id === undefined ? null : cellText(p[mapping.source_id]) || null;

    const typeInputs: ClassifierInput[] = [];
    for (const column of mapping.type_columns) {
      const text = attributeValue(p[column]);
      if (text !== undefined && typeof text !== 'boolean') typeInputs.push({ field: column, text: String(text) });
    }
    const sourceType = typeInputs[0]?.text ?? null;
    typeInputs.push({ field: mapping.name, text: name });
    const classification = classifyAsset(typeInputs, this.options.category);

    // Joined rather than concatenated: one flat string is kept per row seen, not a tree of its parts.
    const identity = sourceId
      ? ['id:', mapping.source_id!.toLowerCase(), ':', sourceId].join('')
      : ['content:', normalizeTypeText(name), '|', sourceType ? normalizeTypeText(sourceType) : '', '|', point.lon.toFixed(6), '|', point.lat.toFixed(6)].join('');
    // Duplicates are found by identity (one jurisdiction per file): the keyed id is computed only
    // for the assets the write pass builds.
    if (this.isDuplicate(identity)) {
      this.reject(mapping.source_id ?? mapping.name, 'duplicate', sourceId
        ? `Source id ${sourceId} appears earlier in the file; the first row is kept.`
        : 'Same name, type and position as an earlier row; the first row is kept.');
      return this.rejectRow();
    }
    this.count(classification, sourceType ?? name);
    return { properties: p, mapping, name, point, sourceId, sourceType, classification, identity };
  }

  /** Whether the row being validated repeats an earlier one; remembers its identity if not. */
  private isDuplicate(identity: string): boolean {
    const known = this.options.knownDuplicates;
    if (known) return known.has(this.row);
    if (this.seen.has(identity)) {
      this.duplicates.add(this.row);
      return true;
    }
    this.seen.add(identity);
    return false;
  }

  /**
   * The rows found repeating an earlier row, for a second pass over the same file
   * (`knownDuplicates`): it then finds them without keeping an identity per row.
   */
  get duplicateRows(): ReadonlySet<number> {
    return this.duplicates;
  }

  private asset({ properties: p, mapping, name, point, sourceId, sourceType, classification, identity }: ValidRow): ImportedAsset {
    const attributes: Record<string, string | number | boolean> = {};
    // A surveyed elevation named by column_map is kept first, under its standard name, as a number.
    for (const { column, field } of mapping.surveyed) {
      const reading = readSurveyed(field, p[column]);
      if (reading && 'metres' in reading) attributes[field] = Number(cellText(p[column]));
    }
    let kept = mapping.surveyed.length;
    for (const column of mapping.other_columns) {
      if (kept >= MAX_ATTRIBUTES) break;
      const value = attributeValue(p[column]);
      // Own keys only: a column named `constructor` or `toString` is data like any other. A
      // `__proto__` column is not kept: assigned as a key it would set an object's prototype.
      if (value !== undefined && column !== PROTOTYPE_NAME && !Object.hasOwn(attributes, column)) {
        attributes[column] = value;
        kept++;
      }
    }
    const optional = (column: string | undefined) => (column === undefined ? null : cellText(p[column]) || null);
    const asset: Omit<ImportedAsset, 'content_hash'> = {
      asset_id: `a_${this.assetIdHmac(`${this.options.jurisdictionId}\n${identity}`).slice(0, 24)}`,
      jurisdiction_id: this.options.jurisdictionId,
      name,
      category: classification.category ?? 'unclassified',
      asset_type: classification.asset_type,
      source_type: sourceType,
      classification,
      lon: point.lon,
      lat: point.lat,
      geometry_type: point.geometryType,
      geometry: point.geometry,
      source_id: sourceId,
      address: optional(mapping.address),
      city: optional(mapping.city),
      county: optional(mapping.county),
      owner: optional(mapping.owner),
      attributes,
    };
    return { ...asset, content_hash: hash(JSON.stringify(asset), 32) };
  }

  /**
   * Tables have one header; features may each carry other properties, so their columns are
   * matched per set of property names (the file-level checks use the names of the whole file).
   */
  private mappingFor(properties: Record<string, unknown>): ColumnMapping {
    this.mapping ??= this.mapColumns(this.options.headers ?? Object.keys(properties));
    if (!this.options.hasGeometry) return this.mapping;
    const keys = Object.keys(properties);
    const signature = keys.join('\u0000');
    let mapping = this.featureMappings.get(signature);
    if (!mapping) {
      assertColumnNames(keys);
      mapping = matchColumns(keys, this.options.columnMap);
      if (this.featureMappings.size < MAX_CACHED_MAPPINGS) this.featureMappings.set(signature, mapping);
    }
    return mapping;
  }

  private mapColumns(headers: string[]): ColumnMapping {
    assertColumnNames(headers);
    const absent = Object.keys(this.options.columnMap ?? {}).filter((column) => !headers.includes(column));
    if (absent.length > 0 && !this.options.hasGeometry) {
      throw new AssetFileError('unknown_column', `column_map names ${absent.map((c) => `"${c}"`).join(', ')}, not a column of the file.`, { columns: headers.slice(0, 100) });
    }
    const mapping = matchColumns(headers, this.options.columnMap);
    if (!mapping.name) {
      throw new AssetFileError('missing_name_column', `No column with the asset name. Name it one of: ${COLUMN_ALIASES.name.join(', ')}.`, { columns: headers.slice(0, 100) });
    }
    if (!this.options.hasGeometry && !(mapping.latitude && mapping.longitude)) {
      throw new AssetFileError('no_geometry', `No coordinates: the file needs a latitude column (${COLUMN_ALIASES.latitude.join(', ')}) and a longitude column (${COLUMN_ALIASES.longitude.join(', ')}), in WGS84 decimal degrees.`, { columns: headers.slice(0, 100) });
    }
    return mapping;
  }

  private locate(record: SourceRecord, mapping: ColumnMapping): Located | undefined {
    let lon: number;
    let lat: number;
    let geometryType: ImportedAsset['geometry_type'] = 'Point';
    let geometry: Geometry | null = null;
    if (this.options.hasGeometry) {
      const problems = structuralProblems(record.geometry);
      if (problems.length > 0) {
        this.reject('geometry', problems[0]!.code === 'empty_geometry' ? 'no_geometry' : 'invalid_geometry', problems[0]!.message);
        return undefined;
      }
      const point = representativePoint(record.geometry!);
      if (!point) {
        this.reject('geometry', 'no_geometry', 'The feature has no position.');
        return undefined;
      }
      const stored = storedGeometry(record.geometry!);
      if (stored === 'too_large') {
        this.reject('geometry', 'geometry_too_large', `The geometry has more than ${MAX_STORED_VERTICES} vertices (or is too large to store): simplify it in your GIS (e.g. "Simplify" in QGIS or ArcGIS Pro) and import it again.`);
        return undefined;
      }
      const crossing = isPolygonal(record.geometry!) ? selfIntersection(record.geometry!) : undefined;
      if (crossing !== undefined && crossing !== 'skipped') {
        // Kept, it would make the deliverable's GIS package fail its own validation.
        this.reject('geometry', 'invalid_geometry', `${crossingMessage(record.geometry!.type, crossing.at)}. ${POLYGON_REPAIR_HINT}`);
        return undefined;
      }
      [lon, lat] = point;
      geometryType = record.geometry!.type;
      geometry = stored;
    } else {
      const latitude = coordinate(record.properties[mapping.latitude!]);
      const longitude = coordinate(record.properties[mapping.longitude!]);
      if (typeof latitude !== 'number' || typeof longitude !== 'number') {
        if (typeof latitude !== 'number') this.reject(mapping.latitude!, latitude.code, latitude.message);
        if (typeof longitude !== 'number') this.reject(mapping.longitude!, longitude.code, longitude.message);
        return undefined;
      }
      [lon, lat] = [longitude, latitude];
      if (this.options.reproject) [lon, lat] = this.options.reproject(lon, lat);
    }
    this.withCoordinates++;
    const verdict = checkCoordinates(lon, lat);
    if (verdict === 'ok') return { lon, lat, geometryType, geometry };
    if (verdict === 'swapped') this.swapped++;
    if (verdict === 'outside_florida' || verdict === 'out_of_range') this.outside++;
    if (!this.options.reproject && Math.abs(lon) > 180 && Math.abs(lat) > 90) this.projectedLooking++;
    const code = verdict === 'swapped' ? 'coordinate_order' : verdict;
    // Only an outside_florida verdict can be in Florida with the longitude negated.
    if (westSignLost(lon, lat)) {
      this.unsignedWest++;
      this.reject(this.positionField(mapping), code, `${COORDINATE_MESSAGES[code]} Its longitude ${lon} is east of Greenwich; with a minus sign (${-lon}) it is in Florida: west longitudes are negative.`);
    } else {
      this.reject(this.positionField(mapping), code, COORDINATE_MESSAGES[code]);
    }
    return undefined;
  }

  /** Where a row's position comes from: its geometry, or its latitude and longitude columns (a feature's lat/lon properties are only attributes). */
  private positionField(mapping: ColumnMapping): string {
    return this.options.hasGeometry ? 'geometry' : `${mapping.latitude},${mapping.longitude}`;
  }

  private outsideJurisdiction(point: { lon: number; lat: number }): boolean {
    if (!this.options.area || this.options.outsideJurisdiction === 'accept') return false;
    if (this.options.area.contains(point.lon, point.lat)) return false;
    this.outsideArea++;
    return true;
  }

  private reject(field: string, code: RowErrorCode, message: string): void {
    this.rowErrors.push({ row: this.row, field, code, message });
  }

  private rejectRow(): undefined {
    this.errorCount += this.rowErrors.length;
    const room = (this.options.maxReportedErrors ?? 500) - this.errors.length;
    if (room > 0) this.errors.push(...this.rowErrors.slice(0, room));
    return undefined;
  }

  private count(classification: Classification, typeText: string): void {
    this.accepted++;
    const category = classification.category ?? 'unclassified';
    this.byCategory[category] = (this.byCategory[category] ?? 0) + 1;
    if (classification.asset_type) {
      this.byType[classification.asset_type] = (this.byType[classification.asset_type] ?? 0) + 1;
    } else {
      this.unclassified++;
      const key = typeText.slice(0, 100);
      if (this.unclassifiedTypes.has(key) || this.unclassifiedTypes.size < MAX_UNCLASSIFIED_TYPES) {
        this.unclassifiedTypes.set(key, (this.unclassifiedTypes.get(key) ?? 0) + 1);
      }
    }
  }

  /** Throws the file-level verdict (empty, swapped, outside Florida, nothing valid) or returns the report. */
  finish(): ImportSummary {
    if (this.total === 0) throw new AssetFileError('empty_file', 'The file has no data rows.');
    // Most positions wrong in the same way means the file is, not its rows.
    if (this.swapped * 2 > this.withCoordinates) {
      throw new AssetFileError('coordinate_order', `Latitude and longitude are swapped in ${this.swapped} of ${this.withCoordinates} rows: exchange the two columns (or the axis order of the export).`, { swapped_rows: this.swapped });
    }
    if (this.outside * 2 > this.withCoordinates && this.projectedLooking * 2 > this.outside) {
      throw new AssetFileError('outside_florida', `${this.projectedLooking} of ${this.withCoordinates} positions are not degrees but look like projected coordinates (eastings and northings, e.g. Florida State Plane in US survey feet): send the \`crs\` field naming the file's coordinate system (for example "EPSG:2236" for NAD83 / Florida East (ftUS)), or a zipped Shapefile with its .prj.`, { outside_rows: this.outside, projected_rows: this.projectedLooking, field: 'crs' });
    }
    if (this.outside * 2 > this.withCoordinates) {
      const unsigned = this.unsignedWest > 0 ? ` ${this.unsignedWest} of them are in Florida with a minus sign before the longitude: west longitudes are negative (did the export drop the sign?).` : '';
      throw new AssetFileError('outside_florida', `${this.outside} of ${this.withCoordinates} positions are outside Florida (lon −87.7…−79.8, lat 24.3…31.1). Coordinates must be WGS84 decimal degrees, or the file a zipped Shapefile with its .prj.${unsigned}`, { outside_rows: this.outside });
    }
    if (this.accepted === 0 && this.outsideArea > 0 && this.outsideArea * 2 > this.total) {
      throw new AssetFileError('outside_jurisdiction', `${this.outsideArea} of ${this.total} rows are outside ${this.options.area!.description} and none is inside: check the jurisdiction, or send outside_jurisdiction=warn (or accept) to import them anyway.`, { outside_rows: this.outsideArea });
    }
    if (this.accepted === 0) {
      throw new AssetFileError('no_valid_rows', `None of the ${this.total} rows is valid.`, { errors: this.errors.slice(0, 50) });
    }
    const { other_columns: _other, ...columns } = this.mapping ?? matchColumns([]);
    return {
      total_rows: this.total,
      asset_count: this.accepted,
      categorization: { by_category: this.byCategory, by_asset_type: this.byType, unclassified: this.unclassified },
      validation: {
        accepted: this.accepted,
        rejected: this.total - this.accepted,
        errors: this.errors,
        errors_truncated: this.errorCount > this.errors.length,
        warnings: this.warnings,
        outside_jurisdiction: {
          mode: this.options.outsideJurisdiction ?? 'reject',
          rows: this.outsideArea,
          checked_against: this.options.area && this.options.outsideJurisdiction !== 'accept' ? this.options.area.description : null,
        },
        unclassified_types: [...this.unclassifiedTypes].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count),
      },
      columns,
    };
  }
}
