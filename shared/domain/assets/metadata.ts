import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Completeness of GIS metadata against the core elements of the two standards Florida deliverables
 * use: FGDC CSDGM (FGDC-STD-001-1998, the Florida convention) and ISO 19115 (the 19139 XML
 * encoding or 19115-3). The record is parsed as XML (well-formed or refused) and each element is
 * looked for at its path from the root, by local name, so namespace prefixes do not matter and a
 * tag elsewhere in the file does not count. An element counts when it, or an element inside it,
 * holds text or a code-list value. No DTD is read and no entity is expanded: `&name;` stays text.
 */

export type MetadataStandard = 'fgdc_csdgm' | 'iso_19115';

interface ElementRule {
  /** Reported name. */
  element: string;
  /** Paths below the root element, any of which satisfies the rule; `*` stands for any one element. */
  paths: string[];
  required: boolean;
}

const FGDC_ELEMENTS: ElementRule[] = [
  { element: 'idinfo/citation/citeinfo/title', paths: ['idinfo/citation/citeinfo/title'], required: true },
  { element: 'idinfo/citation/citeinfo/origin', paths: ['idinfo/citation/citeinfo/origin'], required: true },
  { element: 'idinfo/citation/citeinfo/pubdate', paths: ['idinfo/citation/citeinfo/pubdate'], required: true },
  { element: 'idinfo/descript/abstract', paths: ['idinfo/descript/abstract'], required: true },
  { element: 'idinfo/descript/purpose', paths: ['idinfo/descript/purpose'], required: true },
  {
    element: 'idinfo/timeperd',
    paths: ['idinfo/timeperd/timeinfo/sngdate/caldate', 'idinfo/timeperd/timeinfo/mdattim/sngdate/caldate', 'idinfo/timeperd/timeinfo/rngdates/begdate'],
    required: true,
  },
  { element: 'idinfo/status/progress', paths: ['idinfo/status/progress'], required: true },
  { element: 'idinfo/status/update', paths: ['idinfo/status/update'], required: true },
  { element: 'idinfo/spdom/bounding', paths: ['idinfo/spdom/bounding/westbc'], required: true },
  { element: 'idinfo/keywords/theme/themekey', paths: ['idinfo/keywords/theme/themekey'], required: true },
  { element: 'idinfo/accconst', paths: ['idinfo/accconst'], required: true },
  { element: 'idinfo/useconst', paths: ['idinfo/useconst'], required: true },
  { element: 'spref/horizsys', paths: ['spref/horizsys'], required: true },
  { element: 'metainfo/metd', paths: ['metainfo/metd'], required: true },
  { element: 'metainfo/metc', paths: ['metainfo/metc'], required: true },
  { element: 'metainfo/metstdn', paths: ['metainfo/metstdn'], required: true },
  { element: 'dataqual/lineage', paths: ['dataqual/lineage'], required: false },
  { element: 'dataqual/posacc', paths: ['dataqual/posacc'], required: false },
  { element: 'eainfo', paths: ['eainfo'], required: false },
  { element: 'distinfo', paths: ['distinfo'], required: false },
  { element: 'idinfo/ptcontac', paths: ['idinfo/ptcontac'], required: false },
];

/** `identificationInfo/*`: MD_DataIdentification, SV_ServiceIdentification (19139 and 19115-3 alike). */
const ISO_ELEMENTS: ElementRule[] = [
  { element: 'identificationInfo/citation/title', paths: ['identificationInfo/*/citation/CI_Citation/title'], required: true },
  { element: 'identificationInfo/citation/date', paths: ['identificationInfo/*/citation/CI_Citation/date'], required: true },
  { element: 'identificationInfo/abstract', paths: ['identificationInfo/*/abstract'], required: true },
  { element: 'identificationInfo/pointOfContact', paths: ['identificationInfo/*/pointOfContact'], required: true },
  { element: 'identificationInfo/topicCategory', paths: ['identificationInfo/*/topicCategory'], required: true },
  { element: 'identificationInfo/language', paths: ['identificationInfo/*/language', 'identificationInfo/*/defaultLocale'], required: true },
  {
    element: 'extent/EX_GeographicBoundingBox',
    paths: ['identificationInfo/*/extent/EX_Extent/geographicElement/EX_GeographicBoundingBox/westBoundLongitude'],
    required: true,
  },
  { element: 'referenceSystemInfo', paths: ['referenceSystemInfo'], required: true },
  { element: 'contact', paths: ['contact'], required: true },
  { element: 'dateStamp', paths: ['dateStamp', 'dateInfo'], required: true },
  { element: 'dataQualityInfo/lineage', paths: ['dataQualityInfo/*/lineage', 'resourceLineage'], required: false },
  { element: 'distributionInfo/distributionFormat', paths: ['distributionInfo/*/distributionFormat'], required: false },
  { element: 'metadataStandardName', paths: ['metadataStandardName', 'metadataStandard'], required: false },
  { element: 'spatialRepresentationType', paths: ['identificationInfo/*/spatialRepresentationType'], required: false },
  { element: 'characterSet', paths: ['characterSet', 'identificationInfo/*/characterSet', 'defaultLocale/PT_Locale/characterEncoding'], required: false },
];

export interface MetadataCheck {
  standard: MetadataStandard | null;
  present: string[];
  missing_required: string[];
  missing_recommended: string[];
  /** Why the standard could not be recognised. */
  problem?: 'not_xml' | 'unknown_standard';
  /** With `not_xml` on text that starts like XML: where and why it is not well-formed. */
  detail?: string;
}

/** Real records nest about 20 deep; deeper input is refused rather than walked. */
export const MAX_METADATA_DEPTH = 100;
const MAX_DETAIL_CHARS = 160;

/** Parsed element, in document order: `{ tag: children, ':@'?: attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Entities and the DTD are never processed: `&lol9;` stays 6 characters of text.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  maxNestedTags: MAX_METADATA_DEPTH,
});

const ATTRIBUTES = ':@';
const TEXT = '#text';

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ATTRIBUTES && key !== TEXT);
}

function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  return tag ? (node[tag] as XmlNode[]) : [];
}

/** Text or a code-list value in the element or anywhere inside it (walked without recursion). */
function hasContent(element: XmlNode): boolean {
  const pending = [element];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node[TEXT] === 'string' && node[TEXT].trim() !== '') return true;
    const codeListValue = (node[ATTRIBUTES] as Record<string, string> | undefined)?.codeListValue;
    if (codeListValue !== undefined && codeListValue.trim() !== '') return true;
    pending.push(...childrenOf(node));
  }
  return false;
}

function elementsAt(root: XmlNode, path: string): XmlNode[] {
  let level = [root];
  for (const step of path.split('/')) {
    level = level.flatMap(childrenOf).filter((child) => {
      const tag = tagOf(child);
      return tag !== undefined && (step === '*' || tag === step);
    });
  }
  return level;
}

export function detectMetadataStandard(root: XmlNode): MetadataStandard | undefined {
  const tag = tagOf(root);
  if (tag === 'MD_Metadata' || tag === 'MI_Metadata') return 'iso_19115';
  if (tag === 'metadata' && childrenOf(root).some((child) => tagOf(child) === 'idinfo')) return 'fgdc_csdgm';
  return undefined;
}

type Parsed = { root: XmlNode } | { detail: string };

/** The document's one root element, or why the text is not well-formed XML. */
function parseRoot(xml: string): Parsed {
  const verdict = XMLValidator.validate(xml, { allowBooleanAttributes: true });
  if (verdict !== true) {
    return { detail: `Line ${verdict.err.line}, column ${verdict.err.col}: ${verdict.err.msg}`.slice(0, MAX_DETAIL_CHARS) };
  }
  let nodes: XmlNode[];
  try {
    nodes = parser.parse(xml) as XmlNode[];
  } catch (error) {
    return { detail: (error as Error).message.slice(0, MAX_DETAIL_CHARS) };
  }
  const roots = nodes.filter((node) => tagOf(node) !== undefined);
  return roots.length === 1 ? { root: roots[0]! } : { detail: 'An XML document has exactly one root element.' };
}

export function checkMetadata(text: string): MetadataCheck {
  const xml = text.replace(/^\uFEFF/, '').trim();
  const empty = { standard: null, present: [], missing_required: [], missing_recommended: [] };
  if (!xml.startsWith('<')) return { ...empty, problem: 'not_xml' };
  const parsed = parseRoot(xml);
  if ('detail' in parsed) return { ...empty, problem: 'not_xml', detail: parsed.detail };
  const standard = detectMetadataStandard(parsed.root);
  if (!standard) return { ...empty, problem: 'unknown_standard' };
  const rules = standard === 'fgdc_csdgm' ? FGDC_ELEMENTS : ISO_ELEMENTS;
  const result: MetadataCheck = { standard, present: [], missing_required: [], missing_recommended: [] };
  for (const rule of rules) {
    if (rule.paths.some((path) => elementsAt(parsed.root, path).some(hasContent))) result.present.push(rule.element);
    else if (rule.required) result.missing_required.push(rule.element);
    else result.missing_recommended.push(rule.element);
  }
  return result;
}
