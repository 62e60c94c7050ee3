/** A leaf module (no proj4): the request schemas parse `crs` fields with it. */

/** "EPSG:3087", "3087", "urn:ogc:def:crs:EPSG::3087", "http://www.opengis.net/def/crs/EPSG/0/3087"; CRS84 is 4326. */
export function parseCrsReference(text: string): number | undefined {
  const value = text.trim();
  if (/^(urn:ogc:def:crs:OGC:(1\.3)?:CRS84|OGC:CRS84|CRS84)$/i.test(value)) return 4326;
  const match = /^(?:EPSG:{1,2}|urn:ogc:def:crs:EPSG:[\d.]*:|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/\d+\/)?(\d{4,6})$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}
