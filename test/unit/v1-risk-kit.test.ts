import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { generateKit, kitCsv, type Household } from '../../shared/domain/preparedness/kit';

const catalogue = readCsvRows(path.join(__dirname, '../../shared/data/v1/supplies/supplies_catalog.csv'));
const row = (id: string) => catalogue.find((r) => r.id === id)!;
/** The leading number of a catalogue rule ("1 gallon" → 1). */
const amount = (id: string) => Number(/^\d+(\.\d+)?/.exec(row(id).quantity_rule!)![0]);

const households: [string, Household][] = [
  ['a single adult, Florida default', { adults: 1, children: 0, infants: 0, pets: 0, days: 7, medical_needs: false, hazard: 'general' }],
  ['a family of five with a pet before a hurricane', { adults: 2, children: 2, infants: 1, pets: 1, days: 7, medical_needs: true, hazard: 'hurricane' }],
  ['two retirees with two dogs, three days, flood', { adults: 2, children: 0, infants: 0, pets: 2, days: 3, medical_needs: true, hazard: 'flood' }],
  ['a large household for a month', { adults: 4, children: 3, infants: 2, pets: 3, days: 30, medical_needs: false, hazard: 'hurricane' }],
];

describe('household supply kit from the catalogue rules', () => {
  it.each(households)('%s: water, food and per-person quantities follow the catalogue', (_name, h) => {
    const kit = generateKit(h);
    const people = h.adults + h.children + h.infants;
    const qty = (id: string) => kit.items.find((i) => i.id === id)?.quantity;
    expect(row('water').quantity_per).toBe('person/day');
    expect(kit.totals.water_gallons).toBe(amount('water') * people * h.days);
    expect(qty('water')).toBe(kit.totals.water_gallons);
    expect(kit.totals.food_person_days).toBe(amount('food') * people * h.days);
    expect(qty('flashlight')).toBe(people);
    expect(qty('whistle')).toBe(people);
    expect(qty('radio')).toBe(1);
    // one set of batteries per battery-powered item: the radio and each flashlight
    expect(qty('batteries')).toBe(1 + people);
    expect(qty('infant')).toBe(h.infants > 0 ? h.infants * h.days : undefined);
    expect(qty('pet_food_water')).toBe(h.pets > 0 ? h.pets * h.days : undefined);
    expect(kit.totals.pet_supply_days).toBe(h.pets * h.days);
    // Water is per person plus the pets' extra water, which the catalogue's pet rule counts per pet per day (no volume).
    const petRow = row('pet_food_water');
    expect(petRow.quantity_per).toBe('pet/day');
    expect(petRow.source_text).toMatch(/extra water for your pet/);
    expect(kit.totals.pet_water_days).toBe(amount('pet_food_water') * h.pets * h.days);
    const waterWhy = kit.items.find((i) => i.id === 'water')!.why;
    if (h.pets > 0) {
      expect(waterWhy).toContain(`plus pets: "${petRow.source_text}"`);
      expect(waterWhy).toContain(`${h.pets} pet${h.pets === 1 ? '' : 's'} × ${h.days} days`);
    } else {
      expect(waterWhy).not.toMatch(/pet/);
    }
    expect(qty('pet_docs')).toBe(h.pets > 0 ? h.pets : undefined);
    expect(qty('rx_meds')).toBe(h.medical_needs ? h.days : undefined);
    expect(qty('kids_activities')).toBe(h.children > 0 ? 1 : undefined);
  });

  it.each(households)('%s: hurricane items only for hurricanes, and each item traceable to its source text', (_name, h) => {
    const kit = generateKit(h);
    const hurricaneOnly = catalogue.filter((r) => r.applies_when === 'hurricane_season').map((r) => r.id);
    for (const id of hurricaneOnly) expect(kit.items.some((i) => i.id === id)).toBe(h.hazard === 'hurricane');
    for (const item of kit.items) {
      const source = row(item.id);
      expect(item.source_text).toBe(source.source_text);
      expect(item.source_ids).toEqual(source.source_id!.split(';'));
      expect(item.item).toBe(source.item);
    }
    const always = catalogue.filter((r) => r.applies_when === 'always').map((r) => r.id);
    for (const id of always) expect(kit.items.map((i) => i.id)).toContain(id);
    expect(new Set(kit.sources.map((s) => s.id))).toEqual(new Set(kit.items.flatMap((i) => i.source_ids)));
  });

  it('says when fewer days than Florida recommends are asked for, and that pet water has no stated volume', () => {
    const kit = generateKit(households[2]![1]);
    expect(kit.notes.join(' ')).toMatch(/minimum of 7 days/);
    expect(kit.notes.join(' ')).toMatch(/no volume/);
  });

  it('writes a CSV with one line per item, quoting commas and neutralising formula characters', () => {
    const kit = generateKit(households[1]![1]);
    const csv = kitCsv(kit);
    const parsed = readCsvRows(writeTemp(csv));
    expect(parsed).toHaveLength(kit.items.length);
    expect(parsed[0]).toMatchObject({ id: 'water', quantity: String(kit.totals.water_gallons), source_text: row('water').source_text });
    expect(parsed.find((r) => r.id === 'rx_meds')!.source_text).toBe(row('rx_meds').source_text);
  });
});

function writeTemp(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kit-')), 'kit.csv');
  writeFileSync(file, text);
  return file;
}
