/**
 * Numbers written in a cell, read as people write decimals: `Number()` alone also reads `0x1B` (27),
 * `0b11` and `0o17`, which no coordinate or elevation column means.
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The finite number a trimmed text writes in decimal notation, or NaN. */
export function decimalFromText(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/** Why a coordinate text is not a number, in the words a GIS analyst can act on. */
export function notADecimalCoordinate(text: string): string {
  if (/^[+-]?\d+,\d+$/.test(text)) return `Not a number: "${text}" has a decimal comma; write decimal degrees with a point (${text.replace(',', '.')}).`;
  if (/[°º'’"″NSEWnsew]/.test(text) && /\d/.test(text)) {
    return `Not a number: "${text.slice(0, 40)}" looks like degrees, minutes and seconds or a hemisphere letter; give signed decimal degrees (west longitudes negative).`;
  }
  return 'Not a number';
}
