import { generateKit, kitCsv, type Household, type Kit } from '../../domain/preparedness/kit';
import { floridaDate } from '../../domain/florida-time';
import type { KitRenderer } from './ports';

export interface SupplyKitDeps {
  pdf: KitRenderer;
}

export type SupplyKitFormat = 'json' | 'csv' | 'pdf';

/** The kit itself, or the kit as a file to download. */
export type SupplyKit =
  | { format: 'json'; kit: Kit }
  | { format: 'csv' | 'pdf'; file: { name: string; content: string | Buffer; contentType: string } };

/** `GET /v1/supplies/generate`: the household's kit, as data, a CSV list or a printable PDF checklist. */
export async function supplyKit(deps: SupplyKitDeps, household: Household, format: SupplyKitFormat, now: Date): Promise<SupplyKit> {
  const kit = generateKit(household);
  const name = `supply-kit-${household.adults + household.children + household.infants}-people-${household.days}-days`;
  if (format === 'csv') return { format, file: { name: `${name}.csv`, content: kitCsv(kit), contentType: 'text/csv; charset=utf-8' } };
  if (format === 'pdf') return { format, file: { name: `${name}.pdf`, content: await deps.pdf.render(kit, floridaDate(now)), contentType: 'application/pdf' } };
  return { format, kit };
}
