/**
 * Florida landfalls from HURDAT2's own landfall records (record identifier `L`) of the track table
 * `dfp.csv` (HURDAT2 1900–2024 as rows) and the storm names of `dfh.csv`:
 *   npx tsx scripts/derive-hurdat2-landfalls.ts <reference-data-folder>
 * A landfall is Florida's when its position lies in a Florida county or, since HURDAT2 positions
 * (0.1°) sit on the coastline, when the nearest U.S. county (Census boundaries, us-atlas) within
 * 30 km is a Florida county. Writes `shared/data/hazards/hurdat2-florida-landfalls.json` and copies
 * both raw files to `test/fixtures/raw/` for the science tests.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { parse } from 'csv-parse/sync';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countiesTopology from 'us-atlas/counties-10m.json';
import { tableOf } from '../shared/data/record-table';
import { haversineKm } from '../shared/domain/hazards/geo';

const COAST_MATCH_KM = 30;

function main(): void {
  const source = process.argv[2];
  if (!source) throw new Error('Usage: derive-hurdat2-landfalls.ts <reference-data-folder>');
  const raw = (f: string) => path.join(source, 'raw', f);
  const topology = countiesTopology as unknown as Topology<{ counties: GeometryCollection<{ name: string }> }>;
  const counties = (feature(topology, topology.objects.counties) as unknown as { features: Feature<Polygon | MultiPolygon, { name: string }>[] }).features
    .map((f) => ({ fips: String(f.id), name: f.properties.name, geometry: f.geometry, vertices: (f.geometry.type === 'Polygon' ? f.geometry.coordinates.flat() : f.geometry.coordinates.flat(2)) }));
  const names = new Map((parse(readFileSync(raw('dfh.csv')), { columns: true }) as Record<string, string>[]).map((r) => [r.storm_id!, r.storm_name!]));
  const landfalls = (parse(readFileSync(raw('dfp.csv')), { columns: true }) as Record<string, string>[])
    .filter((r) => r.landfall_marker === 'L')
    .flatMap((r) => {
      const m = /POINT \((-?[\d.]+) (-?[\d.]+)\)/.exec(r.geometry!)!;
      const point = { lon: Number(m[1]), lat: Number(m[2]) };
      let county = counties.find((c) => booleanPointInPolygon([point.lon, point.lat], c.geometry));
      let match = 'inside_county';
      if (!county) {
        let best = { km: Infinity, county: undefined as (typeof counties)[number] | undefined };
        for (const c of counties) {
          for (const [lon, lat] of c.vertices) {
            if (Math.abs(lat! - point.lat) > 0.5 || Math.abs(lon! - point.lon) > 0.5) continue;
            const km = haversineKm(point, { lat: lat!, lon: lon! });
            if (km < best.km) best = { km, county: c };
          }
        }
        if (best.km > COAST_MATCH_KM) return [];
        county = best.county;
        match = `nearest_county_${Math.round(best.km * 10) / 10}_km`;
      }
      if (!county!.fips.startsWith('12')) return [];
      return [{
        storm_id: r.storm_id, name: names.get(r.storm_id!) ?? 'UNNAMED', landfall_time: `${r.datetime!.replace(' ', 'T')}Z`,
        lat: point.lat, lon: point.lon, wind_kt: Number(r.wind_speed), pressure_mb: Number(r.pressure) > 0 ? Number(r.pressure) : null,
        status: r.status, county_fips: county!.fips, county: county!.name, county_match: match,
      }];
    });
  writeFileSync(path.join(__dirname, '../shared/data/hazards/hurdat2-florida-landfalls.json'), `${JSON.stringify(tableOf(landfalls))}\n`);
  const fixtures = path.join(__dirname, '../test/fixtures/raw');
  mkdirSync(fixtures, { recursive: true });
  for (const f of ['dfp.csv', 'dfh.csv']) copyFileSync(raw(f), path.join(fixtures, f));
  process.stdout.write(`${landfalls.length} Florida landfalls\n`);
}

main();
