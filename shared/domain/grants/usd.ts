/** US dollars as a message prints them: whole dollars, or with cents when there are any. */
export const usd = (value: number): string =>
  `$${Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
