import { parseCrsReference } from '../../shared/domain/assets/crs-reference';

describe('CRS references in requests', () => {
  it.each([
    ['EPSG:3087', 3087],
    ['epsg:3087', 3087],
    ['EPSG::3087', 3087],
    ['  EPSG:2236\n', 2236],
    ['3087', 3087],
    ['4326', 4326],
    ['102658', 102658],
    ['urn:ogc:def:crs:EPSG::3087', 3087],
    ['URN:OGC:DEF:CRS:EPSG::6439', 6439],
    ['urn:ogc:def:crs:EPSG:9.8.15:3087', 3087],
    ['http://www.opengis.net/def/crs/EPSG/0/3087', 3087],
    ['https://www.opengis.net/def/crs/EPSG/0/2777', 2777],
    ['http://www.opengis.net/def/crs/EPSG/12/3087', 3087],
    // CRS84 is WGS84 with longitude first, which is how the API reads 4326.
    ['CRS84', 4326],
    ['crs84', 4326],
    ['OGC:CRS84', 4326],
    ['urn:ogc:def:crs:OGC:1.3:CRS84', 4326],
    ['urn:ogc:def:crs:OGC::CRS84', 4326],
  ])('%j is EPSG %d', (text, code) => {
    expect(parseCrsReference(text)).toBe(code);
  });

  it.each([
    '', '   ', 'EPSG:', 'EPSG:123', 'EPSG:1234567', '123', '1234567', 'EPSG:::3087', 'EPSG 3087', 'EPSG:3087x', 'x3087', '3087.0', '-3087',
    'ESRI:102658', 'urn:ogc:def:crs:EPSG:3087', 'urn:ogc:def:crs:EPSG:v1:3087', 'http://www.opengis.net/def/crs/EPSG//3087',
    'ftp://www.opengis.net/def/crs/EPSG/0/3087', 'http://example.org/def/crs/EPSG/0/3087', 'CRS84x', 'xCRS84', 'OGC:CRS83',
    'urn:ogc:def:crs:OGC:1.2:CRS84', 'urn:ogc:def:crs:OGC:CRS84',
  ])('%j is not a CRS reference', (text) => {
    expect(parseCrsReference(text)).toBeUndefined();
  });
});
