import { generateKit, kitCsv, type Household, type Kit } from '../../shared/domain/preparedness/kit';

/**
 * What a kit says besides its quantities: each item's unit and condition, the counts in its
 * reason (singular and plural), the household it was made for, the notes at their thresholds and
 * the CSV cell rules. Expected values are the published answers, written out here.
 */
const base: Household = { adults: 2, children: 2, infants: 1, pets: 1, days: 7, medical_needs: true, hazard: 'hurricane' };
const itemOf = (kit: Kit, id: string) => kit.items.find((i) => i.id === id);

describe('kit units and conditions', () => {
  // Built inside each test, so the kit is made by the code under test at that moment (mutation runs switch code per test).
  let kit: Kit;
  beforeEach(() => {
    kit = generateKit(base);
  });

  it.each([
    ['water', 'gallons', null],
    ['food', "person-days' supply", null],
    ['infant', "infant-days' supply", 'has_infants'],
    ['pet_food_water', "pet-days' supply", 'has_pets'],
    ['rx_meds', "days' supply per person taking prescription medication", 'has_prescriptions'],
    ['med_list', 'each per person taking medication', 'has_prescriptions'],
    ['eyeglasses', 'each for each person who wears glasses or contact lenses', 'for each person who wears glasses or contact lenses'],
    ['vehicle_fuel', 'each per vehicle', 'hurricane_season'],
    ['batteries', 'set', null],
    ['radio', 'each', null],
    ['kids_activities', 'set', 'has_children'],
  ])('%s is counted in "%s" with condition %p', (id, unit, condition) => {
    expect(itemOf(kit, id)).toMatchObject({ unit, condition });
  });

  it('gives the reason of each count, singular or plural', () => {
    expect(itemOf(kit, 'infant')!.why).toBe("1 day's supply per infant/day: 1 infant × 7 days");
    expect(itemOf(kit, 'pet_docs')!.why).toBe('1 set per pet: one for each of 1 pet');
    expect(itemOf(kit, 'eyeglasses')!.why).toBe('1 per person-who-needs: one for each person who needs it');
    expect(itemOf(kit, 'rx_meds')!.why).toBe("1 day's supply per person-with-rx/day: 7 days for each person who takes prescription medication");
    const more = generateKit({ ...base, infants: 2, pets: 2, days: 3 });
    expect(itemOf(more, 'infant')!.why).toBe("1 day's supply per infant/day: 2 infants × 3 days");
    expect(itemOf(more, 'pet_food_water')!.why).toBe("1 day's supply per pet/day: 2 pets × 3 days");
    expect(itemOf(more, 'pet_docs')!.why).toBe('1 set per pet: one for each of 2 pets');
  });

  it('packs infant supplies for an infant in a household without older children', () => {
    const noChildren = generateKit({ ...base, children: 0, infants: 1 });
    expect(itemOf(noChildren, 'infant')).toMatchObject({ quantity: 7, condition: 'has_infants' });
    expect(itemOf(noChildren, 'kids_activities')).toBeUndefined();
  });

  it('echoes the household with its number of people', () => {
    expect(kit.household).toEqual({ adults: 2, children: 2, infants: 1, pets: 1, people: 5, medical_needs: true, hazard: 'hurricane' });
    expect(generateKit({ ...base, adults: 3, children: 1, infants: 0 }).household.people).toBe(4);
  });

  it('adds the pets note only with pets, and the Florida note only below seven days', () => {
    const notes = (h: Partial<Household>) => generateKit({ ...base, ...h }).notes.join(' | ');
    expect(notes({ pets: 1, days: 7 })).toMatch(/Pets: the sources ask/);
    expect(notes({ pets: 0, days: 7 })).not.toMatch(/Pets:/);
    expect(notes({ days: 7 })).not.toMatch(/recommends a minimum/);
    expect(notes({ days: 6 })).toMatch(/recommends a minimum of 7 days; this kit covers 6\./);
    expect(notes({ days: 8 })).not.toMatch(/recommends a minimum/);
    // Only the water note when neither applies.
    expect(generateKit({ ...base, pets: 0, days: 7 }).notes).toEqual([expect.stringMatching(/^Water: 1 gallon per person per day/)]);
  });

  it('lists each source it uses once', () => {
    const ids = kit.sources.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(['fdem_kit', 'readygov_kit', 'readygov_pets', 'redcross_fl']);
    expect(generateKit({ ...base, pets: 0, medical_needs: false, hazard: 'flood' }).sources.map((s) => s.id).sort()).toEqual(['fdem_kit', 'readygov_kit']);
  });
});

describe('kit CSV cells', () => {
  it('writes empty cells for no value, quotes what needs quoting and neutralises formula characters', () => {
    const kit = {
      items: [{
        id: '=1+1', group: '+g', item: 'a, b', quantity: 2, unit: 'say "x"', why: 'two\nlines', condition: null,
        source_id: '@s', source_ids: ['@s'], source_text: '-3',
      }],
    } as unknown as Kit;
    expect(kitCsv(kit)).toBe(
      'id,group,item,quantity,unit,why,condition,source_id,source_text\r\n'
      + `'=1+1,'+g,"a, b",2,"say ""x""","two\nlines",,'@s,'-3\r\n`,
    );
    const plain = { items: [{ id: 'w', group: 'g', item: 'i', quantity: 1, unit: 'u', why: 'r\rs', condition: undefined, source_id: 's', source_ids: ['s'], source_text: 't' }] } as unknown as Kit;
    expect(kitCsv(plain)).toBe('id,group,item,quantity,unit,why,condition,source_id,source_text\r\nw,g,i,1,u,"r\rs",,s,t\r\n');
  });
});
