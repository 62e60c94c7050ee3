import * as z from '../../shared/schemas/zod';
import { decimalParam, LimitParam } from '../../shared/schemas/common';
import { LocationQuery, SuppliesQuery } from '../../shared/schemas/v1-risk';
import { SlrScenariosQuery } from '../../shared/schemas/hazards';
import { decimalFromText, notADecimalCoordinate } from '../../shared/domain/decimal-text';

/** Numbers sent as text are read in decimal notation only, never as z.coerce.number() would. */
describe('decimal text', () => {
  it.each([['27.9506', 27.9506], ['-82.4572', -82.4572], ['+5', 5], ['.5', 0.5], ['5.', 5], ['2.79506e1', 27.9506], ['-8245.72E-2', -82.4572], ['0', 0]])('%j is %d', (text, value) => {
    expect(decimalFromText(text)).toBe(value);
  });

  it.each(['', ' ', '0x1B', '0b11', '0o17', '1_000', '27,95', 'Infinity', '-', '.', 'e5', '1e', '27.9.5', ' 5'])('%j is not a decimal number', (text) => {
    expect(decimalFromText(text)).toBeNaN();
  });
});

describe('why a coordinate text is not a number', () => {
  const comma = (text: string, fixed: string) => `Not a number: "${text}" has a decimal comma; write decimal degrees with a point (${fixed}).`;
  const dms = (shown: string) => `Not a number: "${shown}" looks like degrees, minutes and seconds or a hemisphere letter; give signed decimal degrees (west longitudes negative).`;

  it('names a decimal comma only when the whole text is one signed number with it', () => {
    expect(notADecimalCoordinate('27,9506')).toBe(comma('27,9506', '27.9506'));
    expect(notADecimalCoordinate('-82,4572')).toBe(comma('-82,4572', '-82.4572'));
    expect(notADecimalCoordinate('27°57,5')).toBe(dms('27°57,5'));
    expect(notADecimalCoordinate('27,5°')).toBe(dms('27,5°'));
    expect(notADecimalCoordinate('27,95,1')).toBe('Not a number');
  });

  it('shows at most 40 characters of the text it quotes', () => {
    const long = `27°57'02.123456789012345678901234567890123"N`;
    expect(notADecimalCoordinate(long)).toBe(dms(long.slice(0, 40)));
  });

  it('gives the plain reason for text without digits or marks', () => {
    expect(notADecimalCoordinate('unknown')).toBe('Not a number');
    expect(notADecimalCoordinate('N/A')).toBe('Not a number');
  });
});

describe('decimal parameters', () => {
  const issues = (schema: z.ZodType, input: unknown) => {
    const parsed = schema.safeParse(input);
    expect(parsed.success).toBe(false);
    return parsed.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('reads trimmed decimal text and numbers; an absent value takes the default', () => {
    expect(LimitParam().parse(' 5 ')).toBe(5);
    expect(LimitParam().parse('1e1')).toBe(10);
    expect(LimitParam().parse(7)).toBe(7);
    expect(LimitParam().parse(undefined)).toBe(20);
  });

  it('refuses an empty value, hexadecimal and the like by name, where z.coerce.number() took 0 and 27', () => {
    expect(issues(LimitParam(), '')).toEqual([['', 'Not a decimal number: ""']]);
    expect(issues(LimitParam(), '0x10')).toEqual([['', 'Not a decimal number: "0x10"']]);
    expect(issues(LocationQuery(), { lat: '0x1B', lon: '-82' })).toEqual([['lat', 'Not a decimal number: "0x1B"']]);
    expect(issues(SuppliesQuery(), { adults: '' })).toEqual([['adults', 'Not a decimal number: ""']]);
  });

  it('refuses true and null, which coercion read as 1 and 0', () => {
    const count = decimalParam(z.number().int().min(0));
    expect(issues(count, true)[0]![1]).toMatch(/expected number, received boolean/);
    expect(issues(count, null)[0]![1]).toMatch(/expected number, received null/);
  });

  it('still applies the number rules after reading', () => {
    expect(issues(LimitParam(), '0')[0]![1]).toMatch(/>=1/);
    expect(issues(LimitParam(), '2.5')[0]![1]).toMatch(/expected int/);
  });
});

describe('comma-separated query lists', () => {
  it('keep each value once, in the order given, and read years as decimal numbers', () => {
    const parsed = SlrScenariosQuery().parse({ gauge_id: '8724580', scenario: 'intermediate, intermediate_low,intermediate', time_horizon: '2076,2046,2076' });
    expect([parsed.scenario, parsed.time_horizon]).toEqual([['intermediate', 'intermediate_low'], [2076, 2046]]);
    expect(SlrScenariosQuery().safeParse({ gauge_id: '8724580', time_horizon: '2046,0x7FE' }).error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['time_horizon.1', 'Not a decimal number: "0x7FE"']]);
  });
});
