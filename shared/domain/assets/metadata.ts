/**
 * Completeness of GIS metadata against the core elements of the two standards Florida deliverables
 * use: FGDC CSDGM (FGDC-STD-001-1998, the Florida convention) and ISO 19115 (the 19139 XML
 * encoding or 19115-3). Elements are found by local name, so namespace prefixes do not matter;
 * an element counts when it holds text or a code-list value. No DTD or entity is ever expanded.
 */

export type MetadataStandard = 'fgdc_csdgm' | 'iso_19115';

interface ElementRule {
  /** Reported name. */
  element: string;
  /** Local XML names, any of which satisfies the rule. */
  tags: string[];
  required: boolean;
}

const FGDC_ELEMENTS: ElementRule[] = [
  { element: 'idinfo/citation/citeinfo/title', tags: ['title'], required: true },
  { element: 'idinfo/citation/citeinfo/origin', tags: ['origin'], required: true },
  { element: 'idinfo/citation/citeinfo/pubdate', tags: ['pubdate'], required: true },
  { element: 'idinfo/descript/abstract', tags: ['abstract'], required: true },
  { element: 'idinfo/descript/purpose', tags: ['purpose'], required: true },
  { element: 'idinfo/timeperd', tags: ['caldate', 'begdate', 'sngdate'], required: true },
  { element: 'idinfo/status/progress', tags: ['progress'], required: true },
  { element: 'idinfo/status/update', tags: ['update'], required: true },
  { element: 'idinfo/spdom/bounding', tags: ['westbc'], required: true },
  { element: 'idinfo/keywords/theme/themekey', tags: ['themekey'], required: true },
  { element: 'idinfo/accconst', tags: ['accconst'], required: true },
  { element: 'idinfo/useconst', tags: ['useconst'], required: true },
  { element: 'spref/horizsys', tags: ['horizsys', 'mapproj', 'gridsys', 'geograph', 'horizdn'], required: true },
  { element: 'metainfo/metd', tags: ['metd'], required: true },
  { element: 'metainfo/metc', tags: ['metc'], required: true },
  { element: 'metainfo/metstdn', tags: ['metstdn'], required: true },
  { element: 'dataqual/lineage', tags: ['lineage', 'procstep'], required: false },
  { element: 'dataqual/posacc', tags: ['posacc', 'horizpa'], required: false },
  { element: 'eainfo', tags: ['eainfo', 'attr', 'overview'], required: false },
  { element: 'distinfo', tags: ['distinfo'], required: false },
  { element: 'idinfo/ptcontac', tags: ['ptcontac'], required: false },
];

const ISO_ELEMENTS: ElementRule[] = [
  { element: 'identificationInfo/citation/title', tags: ['title'], required: true },
  { element: 'identificationInfo/citation/date', tags: ['date', 'dateStamp'], required: true },
  { element: 'identificationInfo/abstract', tags: ['abstract'], required: true },
  { element: 'identificationInfo/pointOfContact', tags: ['pointOfContact'], required: true },
  { element: 'identificationInfo/topicCategory', tags: ['topicCategory', 'MD_TopicCategoryCode'], required: true },
  { element: 'identificationInfo/language', tags: ['language', 'defaultLocale'], required: true },
  { element: 'extent/EX_GeographicBoundingBox', tags: ['westBoundLongitude'], required: true },
  { element: 'referenceSystemInfo', tags: ['referenceSystemInfo', 'referenceSystemIdentifier'], required: true },
  { element: 'contact', tags: ['contact'], required: true },
  { element: 'dateStamp', tags: ['dateStamp', 'dateInfo'], required: true },
  { element: 'dataQualityInfo/lineage', tags: ['lineage', 'resourceLineage'], required: false },
  { element: 'distributionInfo/distributionFormat', tags: ['distributionFormat'], required: false },
  { element: 'metadataStandardName', tags: ['metadataStandardName', 'metadataStandard'], required: false },
  { element: 'spatialRepresentationType', tags: ['spatialRepresentationType'], required: false },
  { element: 'characterSet', tags: ['characterSet'], required: false },
];

export interface MetadataCheck {
  standard: MetadataStandard | null;
  present: string[];
  missing_required: string[];
  missing_recommended: string[];
  /** Why the standard could not be recognised. */
  problem?: 'not_xml' | 'unknown_standard';
}

function hasElement(xml: string, tag: string): boolean {
  const pattern = new RegExp(`<(?:[\\w.-]+:)?${tag}\\b([^>]*?)(/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${tag}\\s*>)`, 'g');
  for (const match of xml.matchAll(pattern)) {
    if (/codeListValue\s*=\s*"[^"]+"/.test(match[1] ?? '')) return true;
    const inner = (match[3] ?? '').replace(/<!--[\s\S]*?-->/g, '');
    if (/codeListValue\s*=\s*"[^"]+"/.test(inner)) return true;
    if (inner.replace(/<[^>]*>/g, '').trim() !== '') return true;
  }
  return false;
}

export function detectMetadataStandard(xml: string): MetadataStandard | undefined {
  if (/<(?:[\w.-]+:)?(MD_Metadata|MI_Metadata)\b/.test(xml)) return 'iso_19115';
  if (/<metadata\b/.test(xml) && /<idinfo\b/.test(xml)) return 'fgdc_csdgm';
  return undefined;
}

export function checkMetadata(text: string): MetadataCheck {
  const xml = text.replace(/^\uFEFF/, '').trim();
  const empty = { standard: null, present: [], missing_required: [], missing_recommended: [] };
  if (!xml.startsWith('<')) return { ...empty, problem: 'not_xml' };
  const standard = detectMetadataStandard(xml);
  if (!standard) return { ...empty, problem: 'unknown_standard' };
  const rules = standard === 'fgdc_csdgm' ? FGDC_ELEMENTS : ISO_ELEMENTS;
  const result: MetadataCheck = { standard, present: [], missing_required: [], missing_recommended: [] };
  for (const rule of rules) {
    if (rule.tags.some((tag) => hasElement(xml, tag))) result.present.push(rule.element);
    else if (rule.required) result.missing_required.push(rule.element);
    else result.missing_recommended.push(rule.element);
  }
  return result;
}
