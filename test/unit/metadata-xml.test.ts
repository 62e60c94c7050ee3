import { checkMetadata, MAX_METADATA_DEPTH } from '../../shared/domain/assets/metadata';

/**
 * Metadata read as XML: elements count at their paths only, malformed or hostile input gets a
 * clear answer, and entities are never expanded.
 */

/** An FGDC CSDGM record with every core element at its path; `idinfo` and `citeinfo` can be swapped out. */
function fgdc(parts: { citeinfo?: string; idinfoExtra?: string; prolog?: string; distinfo?: string } = {}): string {
  const citeinfo = parts.citeinfo ?? '<origin>Monroe County GIS</origin><pubdate>20260115</pubdate><title>Critical assets</title>';
  return `${parts.prolog ?? '<?xml version="1.0" encoding="UTF-8"?>'}
<metadata>
  <idinfo>
    <citation><citeinfo>${citeinfo}</citeinfo></citation>
    <descript><abstract>Critical assets.</abstract><purpose>s. 380.093 assessment.</purpose></descript>
    <timeperd><timeinfo><rngdates><begdate>20250101</begdate><enddate>20251231</enddate></rngdates></timeinfo></timeperd>
    <status><progress>Complete</progress><update>Annually</update></status>
    <spdom><bounding><westbc>-82.0</westbc><eastbc>-80.2</eastbc><northbc>25.9</northbc><southbc>24.4</southbc></bounding></spdom>
    <keywords><theme><themekt>None</themekt><themekey>critical assets</themekey></theme></keywords>
    <accconst>None</accconst><useconst>None</useconst>${parts.idinfoExtra ?? ''}
  </idinfo>
  <spref><horizsys><geograph><latres>0.0001</latres></geograph></horizsys></spref>
  ${parts.distinfo ?? ''}
  <metainfo><metd>20260115</metd><metc><cntinfo><cntorgp><cntorg>Monroe County</cntorg></cntorgp></cntinfo></metc><metstdn>FGDC CSDGM</metstdn></metainfo>
</metadata>`;
}

describe('elements at their paths', () => {
  it('a complete record (date range, geographic coordinates) has every required element', () => {
    expect(checkMetadata(fgdc())).toMatchObject({ standard: 'fgdc_csdgm', missing_required: [] });
  });

  it('a required tag at the wrong path does not count, wherever else it appears', () => {
    const check = checkMetadata(fgdc({
      citeinfo: '<origin>Monroe County GIS</origin><pubdate>20260115</pubdate>',
      idinfoExtra: '<title>Critical assets</title>',
      distinfo: '<distinfo><distrib><title>Order form</title></distrib></distinfo>',
    }));
    expect(check.standard).toBe('fgdc_csdgm');
    expect(check.missing_required).toEqual(['idinfo/citation/citeinfo/title']);
    expect(check.present).toContain('distinfo');
  });

  it('ISO 19139: a title, bounding box or abstract outside identificationInfo does not count', () => {
    const check = checkMetadata(`<gmd:MD_Metadata xmlns:gmd="http://www.isotc211.org/2005/gmd" xmlns:gco="http://www.isotc211.org/2005/gco">
      <gmd:title><gco:CharacterString>Assets</gco:CharacterString></gmd:title>
      <gmd:abstract><gco:CharacterString>Stray abstract</gco:CharacterString></gmd:abstract>
      <gmd:westBoundLongitude><gco:Decimal>-82</gco:Decimal></gmd:westBoundLongitude>
      <gmd:contact><gmd:CI_ResponsibleParty><gmd:role><gmd:CI_RoleCode codeList="x" codeListValue="pointOfContact"/></gmd:role></gmd:CI_ResponsibleParty></gmd:contact>
      <gmd:dateStamp><gco:Date>2026-01-15</gco:Date></gmd:dateStamp>
      <gmd:identificationInfo><gmd:MD_DataIdentification>
        <gmd:topicCategory><gmd:MD_TopicCategoryCode>structure</gmd:MD_TopicCategoryCode></gmd:topicCategory>
      </gmd:MD_DataIdentification></gmd:identificationInfo>
    </gmd:MD_Metadata>`);
    expect(check.standard).toBe('iso_19115');
    expect(check.present).toEqual(['identificationInfo/topicCategory', 'contact', 'dateStamp']);
    expect(check.missing_required).toEqual(expect.arrayContaining(['identificationInfo/citation/title', 'identificationInfo/abstract', 'extent/EX_GeographicBoundingBox']));
  });

  it('ISO 19115-3 (defaultLocale, dateInfo, resourceLineage) is read at its own paths', () => {
    const check = checkMetadata(`<mdb:MD_Metadata xmlns:mdb="http://standards.iso.org/iso/19115/-3/mdb/2.0" xmlns:mri="m" xmlns:cit="c" xmlns:gco="g" xmlns:lan="l" xmlns:gex="x" xmlns:mrl="r">
      <mdb:contact><cit:CI_Responsibility><cit:role><cit:CI_RoleCode codeListValue="pointOfContact"/></cit:role></cit:CI_Responsibility></mdb:contact>
      <mdb:dateInfo><cit:CI_Date><cit:date><gco:DateTime>2026-01-15T00:00:00</gco:DateTime></cit:date></cit:CI_Date></mdb:dateInfo>
      <mdb:referenceSystemInfo><mrs:MD_ReferenceSystem xmlns:mrs="s"><mrs:referenceSystemIdentifier><mcc:MD_Identifier xmlns:mcc="i"><mcc:code><gco:CharacterString>EPSG:3087</gco:CharacterString></mcc:code></mcc:MD_Identifier></mrs:referenceSystemIdentifier></mrs:MD_ReferenceSystem></mdb:referenceSystemInfo>
      <mdb:identificationInfo><mri:MD_DataIdentification>
        <mri:citation><cit:CI_Citation><cit:title><gco:CharacterString>Assets</gco:CharacterString></cit:title><cit:date><cit:CI_Date><cit:date><gco:Date>2026-01-01</gco:Date></cit:date></cit:CI_Date></cit:date></cit:CI_Citation></mri:citation>
        <mri:abstract><gco:CharacterString>Critical assets.</gco:CharacterString></mri:abstract>
        <mri:pointOfContact><cit:CI_Responsibility><cit:role><cit:CI_RoleCode codeListValue="owner"/></cit:role></cit:CI_Responsibility></mri:pointOfContact>
        <mri:topicCategory><mri:MD_TopicCategoryCode>structure</mri:MD_TopicCategoryCode></mri:topicCategory>
        <mri:extent><gex:EX_Extent><gex:geographicElement><gex:EX_GeographicBoundingBox><gex:westBoundLongitude><gco:Decimal>-82</gco:Decimal></gex:westBoundLongitude></gex:EX_GeographicBoundingBox></gex:geographicElement></gex:EX_Extent></mri:extent>
        <mri:defaultLocale><lan:PT_Locale><lan:language><lan:LanguageCode codeListValue="eng"/></lan:language></lan:PT_Locale></mri:defaultLocale>
      </mri:MD_DataIdentification></mdb:identificationInfo>
      <mdb:resourceLineage><mrl:LI_Lineage><mrl:statement><gco:CharacterString>Compiled</gco:CharacterString></mrl:statement></mrl:LI_Lineage></mdb:resourceLineage>
    </mdb:MD_Metadata>`);
    expect(check).toMatchObject({ standard: 'iso_19115', missing_required: [] });
    expect(check.present).toContain('dataQualityInfo/lineage');
  });

  it('FGDC element names in a document whose root is not <metadata> are no FGDC record', () => {
    expect(checkMetadata(`<export>${fgdc({ prolog: '' })}</export>`)).toMatchObject({ standard: null, problem: 'unknown_standard' });
  });
});

describe('malformed and hostile input', () => {
  const TWO_MB = 2 * 1024 * 1024;

  it('a record with a tag left open is not well-formed XML, and says where', () => {
    const check = checkMetadata(fgdc().replace('</purpose>', ''));
    expect(check).toMatchObject({ standard: null, problem: 'not_xml', present: [] });
    expect(check.detail).toMatch(/^Line \d+, column \d+: .*purpose/);
  });

  it('2 MB of nested elements is refused as too deep', () => {
    const levels = Math.floor(TWO_MB / 7);
    const xml = `<metadata><idinfo>${'<a>'.repeat(levels)}x${'</a>'.repeat(levels)}</idinfo></metadata>`;
    expect(xml.length).toBeGreaterThan(TWO_MB);
    const check = checkMetadata(xml);
    expect(check).toMatchObject({ standard: null, problem: 'not_xml' });
    expect(check.detail).toMatch(/nested/i);
    expect(MAX_METADATA_DEPTH).toBeLessThan(levels);
  });

  it('2 MB of unclosed tags is refused, with a short reason', () => {
    const xml = `<metadata><idinfo>${'<title>x'.repeat(Math.ceil(TWO_MB / 8))}`;
    const check = checkMetadata(xml);
    expect(check).toMatchObject({ standard: null, problem: 'not_xml' });
    expect(check.detail!.length).toBeLessThanOrEqual(160);
  });

  it('2 MB of attributes on one element is read to the end: the record is judged, not refused', () => {
    const attributes = Array.from({ length: Math.ceil(TWO_MB / 9) }, (_, i) => `a${i}="x"`).join(' ');
    const xml = fgdc({ idinfoExtra: `<ptcontac ${attributes}/>` });
    expect(xml.length).toBeGreaterThan(TWO_MB);
    const check = checkMetadata(xml);
    expect(check).toMatchObject({ standard: 'fgdc_csdgm', missing_required: [] });
    // Attributes are no content: the contact has neither text nor a code-list value.
    expect(check.missing_recommended).toContain('idinfo/ptcontac');
  });

  it('2 MB of "<" is not XML', () => {
    expect(checkMetadata(`<metadata>${'<'.repeat(TWO_MB)}`)).toMatchObject({ standard: null, problem: 'not_xml' });
  });

  it('an entity-expansion bomb is not expanded: entity references stay literal text', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const prolog = `<?xml version="1.0"?><!DOCTYPE metadata [<!ENTITY lol0 "lol">${laughs}<!ENTITY nothing "">]>`;
    // Expanded, `&nothing;` would leave the title empty (missing); kept literal, it is text.
    const check = checkMetadata(fgdc({ prolog, citeinfo: '<origin>&lol9;</origin><pubdate>20260115</pubdate><title>&nothing;</title>' }));
    expect(check).toMatchObject({ standard: 'fgdc_csdgm', missing_required: [] });
  });

  it('an external entity (a file or URL to read) is refused, never fetched', () => {
    const prolog = '<?xml version="1.0"?><!DOCTYPE metadata [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';
    const check = checkMetadata(fgdc({ prolog, citeinfo: '<origin>&xxe;</origin><pubdate>20260115</pubdate><title>Assets</title>' }));
    expect(check).toMatchObject({ standard: null, problem: 'not_xml', detail: expect.stringMatching(/external entit/i) });
  });

  it('an FGDC record naming its DTD (as many tools write it) is read', () => {
    const prolog = '<?xml version="1.0"?><!DOCTYPE metadata SYSTEM "http://www.fgdc.gov/metadata/fgdc-std-001-1998.dtd">';
    expect(checkMetadata(fgdc({ prolog }))).toMatchObject({ standard: 'fgdc_csdgm', missing_required: [] });
  });

  it('two root elements are not one document', () => {
    expect(checkMetadata(`${fgdc({ prolog: '' })}${fgdc({ prolog: '' })}`)).toMatchObject({ problem: 'not_xml' });
  });
});
