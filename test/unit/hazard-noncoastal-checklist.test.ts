import { checklistFor, itemsFor, ruleSetFor } from '../../shared/domain/compliance/rule-sets';
import { settingOf } from '../../shared/domain/compliance/setting';

describe('noncoastal checklist variant (2022 amendment)', () => {
  it('drops the tidal (E, F) and surge (G) items for a jurisdiction without tidal exposure, from 2022-07-01', () => {
    const coastal = checklistFor('2025-03-01').items.map((i) => i.item);
    const noncoastal = checklistFor('2025-03-01', settingOf({ county_fips: '12105', display_name: 'Polk County' })).items.map((i) => i.item);
    expect(coastal).toEqual(expect.arrayContaining(['E', 'F', 'G', 'M']));
    expect(noncoastal).toEqual(coastal.filter((id) => !['E', 'F', 'G'].includes(id)));
  });

  it('keeps every item before the amendment and for coastal jurisdictions', () => {
    const set2021 = ruleSetFor('2022-06-30');
    expect(itemsFor(set2021, '2022-06-30', 'noncoastal').map((i) => i.id)).toEqual(itemsFor(set2021, '2022-06-30').map((i) => i.id));
    expect(itemsFor(set2021, '2022-07-01', 'noncoastal').map((i) => i.id)).not.toContain('G');
    expect(ruleSetFor('2025-01-01').noncoastal_variant.verification).toBe('reconstructed');
  });

  it('item M makes two gauges the default and one gauge a recorded judgement (as the hazard endpoints do)', () => {
    const m = checklistFor('2025-03-01').items.find((i) => i.item === 'M')!;
    expect(m.requirement).toMatch(/62S-7\.012\(1\)\(b\)/);
    expect(m.requirement).toMatch(/never a default/);
  });
});
