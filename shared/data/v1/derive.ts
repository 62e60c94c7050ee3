/**
 * Rebuilds the JSON files of this folder from the CSV and XML files beside them (copied unchanged
 * from their sources, see SOURCES.md) and the `us-atlas` county topology. Run when a source changes:
 *   npx tsx shared/data/v1/derive.ts
 * Conversions only: column selection, CSV text → JSON numbers (no rounding), and the structured
 * prerequisites and confirmation flags read from the course catalogue's own columns.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import countiesTopology from 'us-atlas/counties-10m.json';
import { tableOf } from '../record-table';

type Row = Record<string, string>;

const here = (...parts: string[]) => path.join(__dirname, ...parts);
const readCsv = (file: string): Row[] => parse(readFileSync(here(file)), { columns: true, skip_empty_lines: true, bom: true }) as Row[];
const write = (file: string, value: unknown) => writeFileSync(here(file), `${JSON.stringify(value)}\n`);

/** Empty cells stay null; every other cell is the published decimal text read as a number. */
const num = (text: string | undefined): number | null => (text === undefined || text.trim() === '' ? null : Number(text));

const COUNTY_FIELDS = ['POPULATION', 'BUILDVALUE', 'AGRIVALUE', 'AREA', 'RISK_VALUE', 'RISK_SCORE', 'RISK_SPCTL', 'EAL_VALT', 'EAL_SCORE', 'EAL_SPCTL',
  'SOVI_SCORE', 'SOVI_SPCTL', 'RESL_SCORE', 'RESL_SPCTL', 'RESL_VALUE', 'CRF_VALUE'] as const;
const COUNTY_RATINGS = ['RISK_RATNG', 'EAL_RATNG', 'SOVI_RATNG', 'RESL_RATNG'] as const;
const HAZARD_FIELDS = ['EVNTS', 'AFREQ', 'EALT', 'EALS', 'RISKV', 'RISKS'] as const;
const HAZARD_RATINGS = ['EALR', 'RISKR'] as const;

function deriveNri(): void {
  const hazards = readCsv('nri/NRI_HazardInfo_v1.19.0.csv').map((h) => ({ code: h.Prefix!, name: h.Hazard!, period_of_record: h.PeriodOfRecord!, frequency_model: h.FrequencyModel! }));
  const dictionary = readCsv('nri/NRIDataDictionary_v1.19.0.csv');
  const versions = [...new Set(dictionary.map((d) => `${d.Version} (${d['Version Date']})`))];
  if (versions.length !== 1) throw new Error(`Data dictionary has several versions: ${versions.join(', ')}`);
  const metadata = readFileSync(here('nri/NRI_metadata_March2023.xml'), 'utf8');
  const limitation = /<mco:useLimitation>\s*<gco:CharacterString>([^<]+)<\/gco:CharacterString>/.exec(metadata)?.[1];
  if (!limitation) throw new Error('No use limitation in the NRI metadata');
  // FEMA's first two sentences: the planning-only statement, verbatim.
  const disclaimer = limitation.split(/(?<=\.)\s*/).slice(0, 2).join(' ');

  const counties = readCsv('nri/NRI_Table_Counties_Florida_v1.19.0.csv').map((row) => ({
    nri_id: row.NRI_ID!,
    fips: row.STCOFIPS!,
    county: row.COUNTY!,
    county_type: row.COUNTYTYPE!,
    nri_ver: row.NRI_VER!,
    ...Object.fromEntries(COUNTY_FIELDS.map((f) => [f, num(row[f])])),
    ...Object.fromEntries(COUNTY_RATINGS.map((f) => [f, row[f]!])),
    ...Object.fromEntries(hazards.flatMap((h) => [
      ...HAZARD_FIELDS.map((f) => [`${h.code}_${f}`, num(row[`${h.code}_${f}`])]),
      ...HAZARD_RATINGS.map((f) => [`${h.code}_${f}`, row[`${h.code}_${f}`]!]),
    ])),
  }));
  write('nri/fl-counties-nri.json', { dataset: 'FEMA National Risk Index', version: versions[0], level: 'county', disclaimer, hazards, counties: tableOf(counties) });
}

/**
 * Florida counties on the open coast: in the nationwide county topology an arc that only one county
 * uses is the nation's outline (the shoreline; Florida has no land border with another country).
 */
function deriveCoastalCounties(): void {
  const topology = countiesTopology as unknown as { objects: { counties: { geometries: { id: string; properties: { name: string }; type: string; arcs: number[][] | number[][][] }[] } } };
  const uses = new Map<number, number>();
  const arcsOf = (g: { type: string; arcs: number[][] | number[][][] }) => (g.type === 'Polygon' ? (g.arcs as number[][]).flat() : (g.arcs as number[][][]).flat(2));
  const norm = (arc: number) => (arc < 0 ? ~arc : arc);
  for (const g of topology.objects.counties.geometries) for (const arc of arcsOf(g)) uses.set(norm(arc), (uses.get(norm(arc)) ?? 0) + 1);
  const coastal = topology.objects.counties.geometries
    .filter((g) => String(g.id).startsWith('12') && arcsOf(g).some((arc) => uses.get(norm(arc)) === 1))
    .map((g) => ({ fips: String(g.id), name: g.properties.name }))
    .sort((a, b) => a.fips.localeCompare(b.fips));
  write('fl-coastal-counties.json', { method: 'County boundary arcs shared with no other county in us-atlas counties-10m (Census cartographic boundaries 2017, clipped to the shoreline).', counties: coastal });
}

/** Catalogue codes named in a prerequisite text; "IS-800" names the current "IS-800.d". */
function codesIn(text: string, catalogue: readonly string[]): string[] {
  const tokens = text.replace(/[()]/g, ' ').split(/[,;]|\bor\b|\band\b/).map((t) => t.trim().split(/\s+/)[0]!).filter(Boolean);
  const found = tokens.flatMap((token) => catalogue.filter((code) => code === token || code.startsWith(`${token}.`)).slice(0, 1));
  return [...new Set(found)];
}

function deriveCourses(): void {
  const rows = readCsv('courses/courses.csv');
  const codes = rows.map((r) => r.code!);
  const courses = rows.map((r) => {
    const text = r.prerequisites!.trim();
    // "recommended" and "should be completed first" are advice; a bare list of codes is required.
    const advisory = /recommended|should be completed first/i.test(text) || /^none\b/i.test(text);
    const evidence = r.evidence!;
    return {
      code: r.code!,
      title: r.title!,
      provider: r.provider!,
      delivery: r.delivery!,
      hours: num(r.hours),
      ceu: num(r.ceu),
      prerequisites_text: text,
      prerequisites: advisory ? [] : codesIn(text, codes),
      recommended: advisory ? codesIn(text.replace(/^none\b/i, ''), codes) : [],
      audience: r.audience!,
      topic: r.topic!,
      url: r.url!,
      // Hours count as confirmed only when the evidence names them outside its "(… unverified)" note.
      hours_verified: /^verified\b[^(]*\bhours\b/.test(evidence),
      evidence,
      evidence_source: r.evidence_source === '-' ? null : r.evidence_source!,
    };
  });
  write('courses/courses.json', courses);
}

function deriveSupplies(): void {
  write('supplies/supplies.json', readCsv('supplies/supplies_catalog.csv').map((r) => ({
    id: r.id!,
    group: r.group!,
    item: r.item!,
    quantity_rule: r.quantity_rule!,
    quantity_per: r.quantity_per!,
    default_days_fl: num(r.default_days_fl),
    applies_when: r.applies_when!,
    source_ids: r.source_id!.split(';').map((s) => s.trim()),
    source_text: r.source_text!,
  })));
}

deriveNri();
deriveCoastalCounties();
deriveCourses();
deriveSupplies();
