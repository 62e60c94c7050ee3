import { checkMetadata } from '../../shared/domain/assets/metadata';

/**
 * Metadata completeness at the edges of what counts: text or a code-list value anywhere inside an
 * element, whitespace that does not, elements at their path only, prefixes, byte-order marks, the
 * standards' alternative paths, and the ways a record is not XML.
 */
const FGDC_CORE = [
  'idinfo/citation/citeinfo/title', 'idinfo/citation/citeinfo/origin', 'idinfo/citation/citeinfo/pubdate', 'idinfo/descript/abstract',
  'idinfo/descript/purpose', 'idinfo/timeperd', 'idinfo/status/progress', 'idinfo/status/update', 'idinfo/spdom/bounding',
  'idinfo/keywords/theme/themekey', 'idinfo/accconst', 'idinfo/useconst', 'spref/horizsys', 'metainfo/metd', 'metainfo/metc', 'metainfo/metstdn',
];

/** An FGDC record whose idinfo holds `idinfo` and nothing else is filled. */
const fgdc = (idinfo: string, rest = '') => `<metadata><idinfo>${idinfo}</idinfo>${rest}</metadata>`;
const iso = (inner: string, root = 'gmd:MD_Metadata') => `<${root} xmlns:gmd="http://www.isotc211.org/2005/gmd" xmlns:gco="http://www.isotc211.org/2005/gco">${inner}</${root}>`;

describe('what counts as present', () => {
  it('text anywhere inside the element, however deep', () => {
    const check = checkMetadata(fgdc('', '<spref><horizsys><planar><mapproj><mapprojn>Albers</mapprojn></mapproj></planar></horizsys></spref>'));
    expect(check.present).toEqual(['spref/horizsys']);
  });

  it('not whitespace, and not an empty element', () => {
    const check = checkMetadata(fgdc('<citation><citeinfo><title>   </title><origin/></citeinfo></citation>'));
    expect(check.present).toEqual([]);
    expect(check.missing_required).toEqual(FGDC_CORE);
  });

  it('not the same tag elsewhere in the record', () => {
    const check = checkMetadata(fgdc('<title>Assets</title><descript><purpose>p</purpose></descript>', '<abstract>misplaced</abstract>'));
    expect(check.present).toEqual(['idinfo/descript/purpose']);
  });

  it('a code-list value counts, a blank one does not', () => {
    const withCode = checkMetadata(iso('<gmd:characterSet><gmd:MD_CharacterSetCode codeListValue="utf8"/></gmd:characterSet>'));
    expect(withCode.present).toEqual(['characterSet']);
    const blank = checkMetadata(iso('<gmd:characterSet><gmd:MD_CharacterSetCode codeListValue="  "/></gmd:characterSet>'));
    expect(blank.present).toEqual([]);
  });

  it('lists present, missing required and missing recommended elements in the standard\'s order', () => {
    const check = checkMetadata(fgdc('<useconst>None</useconst><citation><citeinfo><title>T</title></citeinfo></citation>', '<eainfo><overview>x</overview></eainfo>'));
    expect(check.standard).toBe('fgdc_csdgm');
    expect(check.present).toEqual(['idinfo/citation/citeinfo/title', 'idinfo/useconst', 'eainfo']);
    expect(check.missing_required).toEqual(FGDC_CORE.filter((e) => e !== 'idinfo/citation/citeinfo/title' && e !== 'idinfo/useconst'));
    expect(check.missing_recommended).toEqual(['dataqual/lineage', 'dataqual/posacc', 'distinfo', 'idinfo/ptcontac']);
  });
});

describe('alternative paths', () => {
  it.each([
    '<timeperd><timeinfo><sngdate><caldate>2026</caldate></sngdate></timeinfo></timeperd>',
    '<timeperd><timeinfo><mdattim><sngdate><caldate>2026</caldate></sngdate></mdattim></timeinfo></timeperd>',
    '<timeperd><timeinfo><rngdates><begdate>2025</begdate></rngdates></timeinfo></timeperd>',
  ])('FGDC time period %#', (timeperd) => {
    expect(checkMetadata(fgdc(timeperd)).present).toEqual(['idinfo/timeperd']);
  });

  it('ISO identification of any kind, service included', () => {
    const check = checkMetadata(iso('<gmd:identificationInfo><srv:SV_ServiceIdentification xmlns:srv="http://www.isotc211.org/2005/srv"><gmd:abstract><gco:CharacterString>A</gco:CharacterString></gmd:abstract></srv:SV_ServiceIdentification></gmd:identificationInfo>'));
    expect(check.present).toEqual(['identificationInfo/abstract']);
  });

  it('ISO 19115-3 names: dateInfo for dateStamp, defaultLocale for language, metadataStandard', () => {
    const check = checkMetadata(iso('<mdb:dateInfo><cit:CI_Date><cit:date>2026-01-15</cit:date></cit:CI_Date></mdb:dateInfo><mdb:metadataStandard>ISO 19115-3</mdb:metadataStandard>', 'mdb:MD_Metadata'));
    expect(check.standard).toBe('iso_19115');
    expect(check.present).toEqual(['dateStamp', 'metadataStandardName']);
  });

  it('MI_Metadata (imagery) is ISO 19115 too', () => {
    expect(checkMetadata(iso('', 'gmi:MI_Metadata')).standard).toBe('iso_19115');
  });
});

describe('recognising the record', () => {
  it('skips a byte-order mark and surrounding whitespace', () => {
    expect(checkMetadata(`\uFEFF \n${fgdc('<accconst>None</accconst>')}\n`)).toMatchObject({ standard: 'fgdc_csdgm', present: ['idinfo/accconst'] });
  });

  it('text that does not start like XML is not XML, with no detail', () => {
    expect(checkMetadata('Title: Critical assets')).toEqual({ standard: null, present: [], missing_required: [], missing_recommended: [], problem: 'not_xml' });
  });

  it('XML that is not well-formed says where', () => {
    const check = checkMetadata('<metadata>\n<idinfo></metadata>');
    expect(check.problem).toBe('not_xml');
    expect(check.detail).toMatch(/^Line 2, column \d+: .+/);
    expect(check.standard).toBeNull();
  });

  it('an attribute without a value (an HTML habit some exporters keep) does not make the record unreadable', () => {
    expect(checkMetadata(fgdc('<accconst draft>None</accconst>'))).toMatchObject({ standard: 'fgdc_csdgm', present: ['idinfo/accconst'] });
  });

  it('nesting past 100 levels is refused, with a detail of at most 160 characters', () => {
    const check = checkMetadata(`${'<a>'.repeat(150)}x${'</a>'.repeat(150)}`);
    expect(check.problem).toBe('not_xml');
    expect(check.detail!.length).toBeGreaterThan(0);
    expect(check.detail!.length).toBeLessThanOrEqual(160);
  });

  it('a metadata root without idinfo, or another root, is no known standard', () => {
    expect(checkMetadata('<metadata><distinfo/></metadata>')).toEqual({ standard: null, present: [], missing_required: [], missing_recommended: [], problem: 'unknown_standard' });
    expect(checkMetadata('<catalog><idinfo/></catalog>').problem).toBe('unknown_standard');
  });

  it('a record with an internal DTD is read without expanding its entities: a reference is its own text', () => {
    // Expanded, `&nothing;` would leave the element empty and so missing.
    const check = checkMetadata(`<!DOCTYPE metadata [<!ENTITY nothing "">]>${fgdc('<accconst>&nothing;</accconst>')}`);
    expect(check.present).toEqual(['idinfo/accconst']);
  });

  it('a "billion laughs" DTD is not expanded', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const check = checkMetadata(`<!DOCTYPE metadata [<!ENTITY lol0 "lol">${levels}]>${fgdc('<accconst>&lol9;</accconst>')}`);
    expect(check.present).toEqual(['idinfo/accconst']);
  });
});
