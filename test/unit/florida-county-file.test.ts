import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countiesTopology from 'us-atlas/counties-10m.json';
import { floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';

// The Florida-only county file must decode to exactly the boundaries of the full us-atlas file.
describe('Florida county boundaries', () => {
  it('are the 67 Florida counties of us-atlas counties-10m, coordinate for coordinate', () => {
    const topology = countiesTopology as unknown as Topology<{ counties: GeometryCollection<{ name: string }> }>;
    const florida = { ...topology.objects.counties, geometries: topology.objects.counties.geometries.filter((g) => String(g.id).startsWith('12')) };
    const expected = (feature(topology, florida) as unknown as { features: Array<{ id: string; properties: { name: string }; geometry: unknown }> }).features;
    const actual = floridaCountyBoundaries();
    expect(actual).toHaveLength(67);
    expect(actual.map((c) => ({ fips: c.fips, name: c.name, geometry: c.geometry })))
      .toEqual(expected.map((f) => ({ fips: String(f.id), name: f.properties.name, geometry: f.geometry })));
  });
});
