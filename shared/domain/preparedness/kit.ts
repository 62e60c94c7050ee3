import catalogue from '../../data/v1/supplies/supplies.json';

/**
 * A household disaster supply kit computed from the catalogue's own rules (`quantity_rule` ×
 * `quantity_per`, kept when `applies_when` holds). Every item keeps its source ids and the
 * verbatim source text, so each line of the kit can be traced to Ready.gov or FDEM.
 */

export interface CatalogueItem {
  id: string;
  group: string;
  item: string;
  quantity_rule: string;
  quantity_per: string;
  default_days_fl: number | null;
  applies_when: string;
  source_ids: string[];
  source_text: string;
}

export const SUPPLY_CATALOGUE: readonly CatalogueItem[] = catalogue as CatalogueItem[];

export const KIT_HAZARDS = ['hurricane', 'flood', 'general'] as const;
export type KitHazard = (typeof KIT_HAZARDS)[number];

/** Florida's recommendation (FDEM: "a minimum of seven days"), the catalogue's default. */
export const DEFAULT_KIT_DAYS = 7;
export const MIN_KIT_DAYS = 3;
export const MAX_KIT_DAYS = 30;

export interface Household {
  adults: number;
  children: number;
  infants: number;
  pets: number;
  days: number;
  medical_needs: boolean;
  hazard: KitHazard;
}

export const KIT_SOURCES = {
  readygov_kit: { id: 'readygov_kit', name: 'Ready.gov "Build a Kit": Basic Disaster Supplies Kit and Additional Emergency Supplies (FEMA)', url: 'https://www.ready.gov/kit' },
  readygov_pets: { id: 'readygov_pets', name: 'Ready.gov pet emergency kit (FEMA)', url: 'https://www.ready.gov/pets' },
  fdem_kit: { id: 'fdem_kit', name: 'Florida Division of Emergency Management disaster supply kit ("a minimum of seven days")', url: 'https://www.floridadisaster.org/planprepare/disaster-supply-kit/' },
  redcross_fl: { id: 'redcross_fl', name: 'American Red Cross hurricane supplies list for Floridians (2020)', url: 'https://lakeokeechobeenews.com/community-news/are-your-hurricane-supplies-ready/' },
} as const;

/** Conditions the request answers; `wears_glasses` it cannot, so such items are listed with their condition. */
function conditionHolds(condition: string, household: Household): boolean | 'unknown' {
  switch (condition) {
    case 'always': return true;
    case 'has_prescriptions': return household.medical_needs;
    case 'has_infants': return household.infants > 0;
    case 'has_children': return household.children > 0;
    case 'has_pets': return household.pets > 0;
    case 'hurricane_season': return household.hazard === 'hurricane';
    case 'wears_glasses': return 'unknown';
    default: throw new Error(`Unknown catalogue condition "${condition}"`);
  }
}

const CONDITION_TEXT: Record<string, string> = {
  wears_glasses: 'for each person who wears glasses or contact lenses',
};

/** `1 gallon` → 1 gallon; `1 day's supply` → day's supply; `1 set` → set; `1` → each. */
function parseRule(rule: string): { amount: number; unit: string } {
  const match = /^(\d+(?:\.\d+)?)\s*(.*)$/.exec(rule.trim());
  if (!match) throw new Error(`Unreadable quantity rule "${rule}"`);
  const unit = match[2]!.trim();
  return { amount: Number(match[1]), unit: unit === '' ? 'each' : unit === "day's supply" ? "days' supply" : unit };
}

interface Counted {
  multiplier: number;
  unit_suffix: string;
  why: string;
  /** For per-day rules counted over people or pets: the unit of the product (`person-days`). */
  day_unit?: string;
}

function countFor(item: CatalogueItem, household: Household, devices: number): Counted {
  const people = household.adults + household.children + household.infants;
  const d = household.days;
  switch (item.quantity_per) {
    case 'person/day': return { multiplier: people * d, unit_suffix: '', why: `${people} people × ${d} days`, day_unit: 'person-days' };
    case 'person': return { multiplier: people, unit_suffix: '', why: `one for each of ${people} people` };
    case 'household': return { multiplier: 1, unit_suffix: '', why: 'one for the household' };
    case 'infant/day': return { multiplier: household.infants * d, unit_suffix: '', why: `${household.infants} infant${household.infants === 1 ? '' : 's'} × ${d} days`, day_unit: 'infant-days' };
    case 'pet/day': return { multiplier: household.pets * d, unit_suffix: '', why: `${household.pets} pet${household.pets === 1 ? '' : 's'} × ${d} days`, day_unit: 'pet-days' };
    case 'pet': return { multiplier: household.pets, unit_suffix: '', why: `one for each of ${household.pets} pet${household.pets === 1 ? '' : 's'}` };
    case 'device': return { multiplier: devices, unit_suffix: '', why: `one set for each of ${devices} battery-powered items in this kit (radio and flashlights)` };
    // The request says whether someone takes prescriptions, not how many do: quantities are per such person.
    case 'person-with-rx/day': return { multiplier: d, unit_suffix: ' per person taking prescription medication', why: `${d} days for each person who takes prescription medication` };
    case 'person-with-rx': return { multiplier: 1, unit_suffix: ' per person taking medication', why: 'one for each person who takes medication' };
    case 'person-who-needs': return { multiplier: 1, unit_suffix: ` ${CONDITION_TEXT[item.applies_when] ?? 'per person who needs it'}`, why: 'one for each person who needs it' };
    case 'vehicle': return { multiplier: 1, unit_suffix: ' per vehicle', why: 'one for each vehicle' };
    default: throw new Error(`Unknown catalogue unit "${item.quantity_per}"`);
  }
}

const DEVICE_ITEMS = ['radio', 'flashlight'];
/** The catalogue row whose rule covers the pets' water ("Pet food and extra water for your pet"). */
const PET_WATER_ITEM = 'pet_food_water';

function unitOf(rule: { unit: string }, counted: Counted): string {
  if (counted.day_unit && rule.unit === "days' supply") return `${counted.day_unit}' supply`;
  return `${rule.unit === 'gallon' ? 'gallons' : rule.unit}${counted.unit_suffix}`;
}

export interface KitItem {
  id: string;
  group: string;
  item: string;
  quantity: number;
  unit: string;
  why: string;
  condition: string | null;
  source_id: string;
  source_ids: string[];
  source_text: string;
}

export function generateKit(household: Household) {
  const people = household.adults + household.children + household.infants;
  const applicable = SUPPLY_CATALOGUE.map((item) => ({ item, holds: conditionHolds(item.applies_when, household) })).filter((c) => c.holds !== false);
  // Battery sets follow the kit's own battery-powered items.
  const devices = applicable.filter((c) => DEVICE_ITEMS.includes(c.item.id))
    .reduce((sum, c) => sum + parseRule(c.item.quantity_rule).amount * countFor(c.item, household, 0).multiplier, 0);
  const petRule = SUPPLY_CATALOGUE.find((item) => item.id === PET_WATER_ITEM)!;
  const items: KitItem[] = applicable.map(({ item, holds }) => {
    const rule = parseRule(item.quantity_rule);
    const counted = countFor(item, household, devices);
    // Water is per person plus the pets' extra water, which the catalogue counts in pet-days (no volume per pet).
    const plusPets = item.id === 'water' && household.pets > 0
      ? `; plus pets: "${petRule.source_text}", ${petRule.quantity_rule} per ${petRule.quantity_per} for ${countFor(petRule, household, 0).why} (${PET_WATER_ITEM}; the sources give no volume per pet)`
      : '';
    return {
      id: item.id,
      group: item.group,
      item: item.item,
      quantity: rule.amount * counted.multiplier,
      unit: unitOf(rule, counted),
      why: `${item.quantity_rule} per ${item.quantity_per}: ${counted.why}${plusPets}`,
      condition: holds === 'unknown' ? CONDITION_TEXT[item.applies_when] ?? item.applies_when : item.applies_when === 'always' ? null : item.applies_when,
      source_id: item.source_ids[0]!,
      source_ids: item.source_ids,
      source_text: item.source_text,
    };
  }).filter((i) => i.quantity > 0);
  const used = new Set(items.flatMap((i) => i.source_ids));
  const water = items.find((i) => i.id === 'water')!;
  const food = items.find((i) => i.id === 'food')!;
  const petSupply = items.find((i) => i.id === PET_WATER_ITEM);
  return {
    household: { adults: household.adults, children: household.children, infants: household.infants, pets: household.pets, people, medical_needs: household.medical_needs, hazard: household.hazard },
    days: household.days,
    items,
    totals: {
      water_gallons: water.quantity,
      food_person_days: food.quantity,
      pet_supply_days: petSupply?.quantity ?? 0,
      // The pets' share of the water, in the only measure the catalogue gives for it.
      pet_water_days: petSupply?.quantity ?? 0,
    },
    notes: [
      `Water: 1 gallon per person per day (Ready.gov; FDEM: "a minimum of 1 gallon daily per person for 7 days") for ${people} people and ${household.days} days.`,
      ...(household.pets > 0 ? ['Pets: the sources ask for food and extra water for each pet but give no volume; the kit counts pet-days of food and water (`pet_food_water`), not gallons.'] : []),
      ...(household.days < DEFAULT_KIT_DAYS ? [`Florida's Division of Emergency Management recommends a minimum of ${DEFAULT_KIT_DAYS} days; this kit covers ${household.days}.`] : []),
    ],
    sources: [...used].map((id) => KIT_SOURCES[id as keyof typeof KIT_SOURCES]).filter(Boolean),
  };
}

export type Kit = ReturnType<typeof generateKit>;

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  // A leading formula character is neutralised so a spreadsheet never evaluates a cell.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const KIT_CSV_COLUMNS = ['id', 'group', 'item', 'quantity', 'unit', 'why', 'condition', 'source_id', 'source_text'] as const;

export function kitCsv(kit: Kit): string {
  const lines = [KIT_CSV_COLUMNS.join(',')];
  for (const item of kit.items) lines.push(KIT_CSV_COLUMNS.map((c) => csvCell(item[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
