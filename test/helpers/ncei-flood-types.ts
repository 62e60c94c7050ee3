/** The NCEI Storm Events types the product counts as flood events, as the tests expect them. */
export const NCEI_FLOOD_EVENT_TYPES: ReadonlySet<string> = new Set([
  'Flood', 'Flash Flood', 'Coastal Flood', 'Lakeshore Flood', 'Storm Surge/Tide', 'Heavy Rain', 'Hurricane', 'Hurricane (Typhoon)', 'Tropical Storm', 'Tropical Depression',
]);
