import { checkCoordinates, inFlorida } from '../../shared/domain/assets/florida-extent';

/**
 * Florida's screening box, lon −87.7…−79.8 and lat 24.3…31.1 as documented: real places on each
 * side of it, and each edge from both sides.
 */
const JUST = 1e-9;

describe('Florida extent', () => {
  it.each([
    ['Fort Jefferson, Dry Tortugas', -82.8732, 24.6285],
    ['Key West', -81.78, 24.5551],
    ['Perdido Key', -87.47, 30.29],
    ['Pensacola', -87.2169, 30.4213],
    ['Fernandina Beach', -81.4626, 30.6697],
    ['Jupiter Inlet', -80.0728, 26.9446],
    ['the Georgia line near the Chattahoochee', -84.8633, 30.9999],
  ])('%s is in Florida, given as longitude then latitude', (_place, lon, lat) => {
    expect(inFlorida(lon, lat)).toBe(true);
    expect(checkCoordinates(lon, lat)).toBe('ok');
  });

  it.each([
    ['Savannah, Georgia', -81.0912, 32.0809],
    ['Mobile, Alabama', -88.0399, 30.6954],
    ['Havana, Cuba', -82.3666, 23.1136],
    ['Bimini, Bahamas', -79.2633, 25.7275],
  ])('%s is outside Florida', (_place, lon, lat) => {
    expect(inFlorida(lon, lat)).toBe(false);
    expect(checkCoordinates(lon, lat)).toBe('outside_florida');
  });

  it.each([
    ['west', -87.7, 27, -87.7 - JUST, 27],
    ['east', -79.8, 27, -79.8 + JUST, 27],
    ['south', -81, 24.3, -81, 24.3 - JUST],
    ['north', -84, 31.1, -84, 31.1 + JUST],
  ])('the %s edge is inside, the next point past it is not', (_edge, lonOn, latOn, lonPast, latPast) => {
    expect(inFlorida(lonOn, latOn)).toBe(true);
    expect(checkCoordinates(lonOn, latOn)).toBe('ok');
    expect(inFlorida(lonPast, latPast)).toBe(false);
    expect(checkCoordinates(lonPast, latPast)).toBe('outside_florida');
  });

  it('every corner of the box is inside', () => {
    for (const lon of [-87.7, -79.8]) for (const lat of [24.3, 31.1]) expect(inFlorida(lon, lat)).toBe(true);
  });

  it('a Florida pair given latitude first is "swapped", also on the box\'s edges', () => {
    expect(checkCoordinates(24.5551, -81.78)).toBe('swapped');
    expect(checkCoordinates(30.4213, -87.2169)).toBe('swapped');
    expect(checkCoordinates(31.1, -87.7)).toBe('swapped');
    expect(checkCoordinates(24.3, -79.8)).toBe('swapped');
    expect(checkCoordinates(31.1 + JUST, -87.7)).toBe('outside_florida');
  });

  it('a latitude past ±90 or a longitude past ±180 is out of range; ±90 and ±180 themselves are not', () => {
    expect(checkCoordinates(-81, 90)).toBe('outside_florida');
    expect(checkCoordinates(-81, -90)).toBe('outside_florida');
    expect(checkCoordinates(-81, 90 + JUST)).toBe('out_of_range');
    expect(checkCoordinates(-81, -90 - JUST)).toBe('out_of_range');
    expect(checkCoordinates(180, 27)).toBe('outside_florida');
    expect(checkCoordinates(-180, 27)).toBe('outside_florida');
    expect(checkCoordinates(180 + JUST, 27)).toBe('out_of_range');
    expect(checkCoordinates(-180 - JUST, 27)).toBe('out_of_range');
    // Projected coordinates (feet or metres) given as degrees.
    expect(checkCoordinates(1_650_000, 480_000)).toBe('out_of_range');
  });
});
