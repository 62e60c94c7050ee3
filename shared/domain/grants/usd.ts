/** US dollars as a message prints them: whole dollars, or with cents when there are any. */
export const usd = (value: number): string =>
  `$${value.toLocaleString('en-US', Number.isInteger(value) ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
