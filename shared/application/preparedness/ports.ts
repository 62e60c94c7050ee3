import type { Kit } from '../../domain/preparedness/kit';

/** Prints a supply kit as a checklist. */
export interface KitRenderer {
  /** The kit as a PDF; `generatedOn` (YYYY-MM-DD) is printed and dates the file, so the same kit is the same bytes. */
  render(kit: Kit, generatedOn: string): Promise<Buffer>;
}
