import { area, length, roundTo } from '../../shared/domain/hazards/units';

/** Units as defined: the international foot is 0.3048 m and the international acre 4,046.8564224 m² (both exact). */

describe('lengths and areas', () => {
  it('gives metres and feet to four decimals', () => {
    expect(length(0.3048)).toEqual({ m: 0.3048, ft: 1 });
    expect(length(1)).toEqual({ m: 1, ft: 3.2808 });
    expect(length(-0.53)).toEqual({ m: -0.53, ft: -1.7388 });
    expect(length(1.23456)).toEqual({ m: 1.2346, ft: 4.0504 });
  });

  it('gives acres to two decimals and square kilometres to four', () => {
    expect(area(4046.8564224)).toEqual({ acres: 1, km2: 0.004 });
    expect(area(1e6)).toEqual({ acres: 247.11, km2: 1 });
    expect(area(123_456_789)).toEqual({ acres: 30506.84, km2: 123.4568 });
  });

  it('rounds at the digit asked', () => {
    expect(roundTo(41.65, 1)).toBe(41.7);
    expect(roundTo(2.345, 2)).toBe(2.35);
    expect(roundTo(7, 0)).toBe(7);
  });
});
