import { extentAt, type ComponentExtent, type InundationExtent } from '../../console/extents';

const square = { type: 'MultiPolygon' as const, coordinates: [[[[-81.8, 24.55], [-81.79, 24.55], [-81.79, 24.56], [-81.8, 24.55]]]] };

function envelope(scenario: string, horizon: number, km2: number): InundationExtent {
  return { type: 'Feature', properties: { scenario, planning_horizon: horizon, km2 }, geometry: square };
}

function componentExtent(fields: Partial<ComponentExtent> & Pick<ComponentExtent, 'component'>): ComponentExtent {
  return { scenario: null, planning_horizon: null, storm: null, area_km2: 0, area_m2: 0, max_depth_m: 0, geometry: square, ...fields };
}

const storm = { return_period_years: 100, depth_mm: 330.2, duration_h: 24 };
const components: ComponentExtent[] = [
  componentExtent({ component: 'tidal', scenario: 'intermediate', planning_horizon: 2050, area_km2: 1.5, area_m2: 1_500_000, max_depth_m: 0.4 }),
  componentExtent({ component: 'tidal', scenario: 'high', planning_horizon: 2050, area_km2: 2.25, area_m2: 2_250_000, max_depth_m: 0.9 }),
  componentExtent({ component: 'rainfall', storm, area_km2: 0.75, area_m2: 750_000, max_depth_m: 1.2 }),
  componentExtent({ component: 'compound', scenario: 'high', planning_horizon: 2050, storm, area_km2: 3, area_m2: 3_000_000, max_depth_m: 1.5 }),
];

/** What the console's legend says and draws for each layer at one step of the slider. */
describe('the console\'s flood extent at a scenario × horizon', () => {
  it('is the envelope\'s own feature, with its area', () => {
    const step = envelope('intermediate_high', 2070, 4.5);
    expect(extentAt('envelope', step, components)).toEqual({ layer: 'envelope', colour: '#2471a3', description: 'All components (envelope), intermediate high 2070: 4.5 km²', feature: step });
  });

  it('is the component\'s extent of the same scenario and horizon, not another step\'s', () => {
    const shown = extentAt('tidal', envelope('high', 2050, 9), components);
    expect(shown.description).toBe('Tidal, high 2050: 2.25 km², deepest 0.9 m');
    expect(shown.feature).toEqual({ type: 'Feature', geometry: square, properties: {} });
    expect(extentAt('compound', envelope('high', 2050, 9), components).description).toBe('Compound, high 2050, 100-year 24 h storm (330.2 mm): 3 km², deepest 1.5 m');
  });

  it('is the same rainfall ponding at every step: one extent per storm', () => {
    const descriptions = [envelope('intermediate', 2050, 1), envelope('high', 2100, 2), undefined].map((step) => extentAt('rainfall', step, components).description);
    expect(new Set(descriptions)).toEqual(new Set(['Rainfall ponding, 100-year 24 h storm (330.2 mm): 0.75 km², deepest 1.2 m']));
  });

  it('names a component the analysis did not trace instead of drawing anything', () => {
    const surge = extentAt('surge', envelope('high', 2050, 9), components);
    expect(surge).toMatchObject({ feature: null, description: 'Storm surge: not traced by this analysis' });
    const compound = extentAt('compound', envelope('intermediate', 2050, 9), components);
    expect(compound.feature).toBeNull();
    expect(compound.description).toMatch(/^Compound: not traced by this analysis \(it needs a design storm/);
    expect(extentAt('rainfall', envelope('high', 2050, 9), []).description).toMatch(/^Rainfall ponding: not traced by this analysis \(it needs a design storm/);
  });
});
