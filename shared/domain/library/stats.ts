import type { Resource } from '../../schemas/library';
import { RESOURCE_CATEGORIES } from './vocabulary';

export interface LibraryStats {
  total_resources: number;
  total_downloads: number;
  total_views: number;
  /** Every category, with 0 for an empty one, so clients see a stable set of keys. */
  categories: Record<string, number>;
}

export function libraryStats(resources: readonly Resource[]): LibraryStats {
  const categories: Record<string, number> = Object.fromEntries(RESOURCE_CATEGORIES.map((category) => [category, 0]));
  let views = 0;
  let downloads = 0;
  for (const resource of resources) {
    categories[resource.category] = (categories[resource.category] ?? 0) + 1;
    views += resource.views;
    downloads += resource.downloads;
  }
  return { total_resources: resources.length, total_downloads: downloads, total_views: views, categories };
}
