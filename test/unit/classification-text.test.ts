import { classifyAsset, normalizeTypeText } from '../../shared/domain/assets/classification';

/** How a type text is read before the rules see it, and the outlet-type codes tied to their column. */
describe('type text normalisation', () => {
  it.each([
    ['Fire & Rescue', 'fire and rescue'],
    ['LIFT-STATION #3', 'lift station 3'],
    ['Lift -- Station', 'lift station'],
    ['  Waste_Water  Plant  ', 'waste water plant'],
    ['Café', 'caf'],
    ['***', ''],
  ])('%j → %j', (text, normalised) => {
    expect(normalizeTypeText(text)).toBe(normalised);
  });
});

describe('outlet-type codes', () => {
  it('a code classifies only in its own column, in any case', () => {
    expect(classifyAsset([{ field: 'C_OUT_TY', text: 'BR' }])).toMatchObject({ asset_type: 'community_centers', rule: 'community_centers:code:c_out_ty', matched_field: 'C_OUT_TY', matched_text: 'BR' });
    expect(classifyAsset([{ field: 'c_out_ty', text: ' bs ' }]).asset_type).toBe('community_centers');
    expect(classifyAsset([{ field: 'TYPE', text: 'CE' }]).asset_type).toBeNull();
    expect(classifyAsset([{ field: 'C_OUT_TY', text: 'ZZ' }]).asset_type).toBeNull();
  });

  it('a code of another category does not apply when the import declares a category', () => {
    expect(classifyAsset([{ field: 'C_OUT_TY', text: 'BR' }], 'transportation')).toMatchObject({ asset_type: null, category: 'transportation' });
  });

  it('the same text in two columns is judged per column, however often it was seen', () => {
    for (let i = 0; i < 3; i++) {
      expect(classifyAsset([{ field: 'C_OUT_TY', text: 'CE' }]).asset_type).toBe('community_centers');
      expect(classifyAsset([{ field: 'KIND', text: 'CE' }]).asset_type).toBeNull();
    }
  });

  it('remembers a text\'s outcome per declared category, not across categories', () => {
    expect(classifyAsset([{ field: 'TYPE', text: 'Fire Station' }], 'community_emergency').asset_type).toBe('fire_stations');
    expect(classifyAsset([{ field: 'TYPE', text: 'Fire Station' }], 'transportation')).toMatchObject({ asset_type: null, category: 'transportation' });
    expect(classifyAsset([{ field: 'TYPE', text: 'Fire Station' }]).asset_type).toBe('fire_stations');
  });
});
