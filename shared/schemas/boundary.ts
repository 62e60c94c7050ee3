import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { parseCrsReference } from '../domain/assets/crs-reference';

/*
 * A boundary as requests send it, in a module of its own: the jurisdiction routes (in the assets
 * function) need it without the hazard schemas, which each function builds when it loads.
 */
const Position = onFirstUse(() => z.array(z.number()).min(2).max(3));
const Ring = onFirstUse(() => z.array(Position()).max(20_000));
/**
 * The pre-RFC 7946 `crs` member GIS exports still write. Positions are read as WGS 84 lon/lat, so a
 * member naming another system is refused rather than dropped unread (a State Plane or Albers
 * boundary would otherwise be judged in the wrong coordinates).
 */
const LegacyCrsMember = onFirstUse(() => z.object({ type: z.literal('name'), properties: z.object({ name: z.string().max(200) }) })
  .superRefine((crs, ctx) => {
    if (parseCrsReference(crs.properties.name) === 4326) return;
    ctx.addIssue({
      code: 'custom',
      message: `The boundary states the coordinate system "${crs.properties.name}"; send it in WGS 84 longitude/latitude (EPSG:4326 or CRS84, as RFC 7946 requires): reproject it first.`,
    });
  })
  .optional()
  .describe('Optional legacy GeoJSON `crs` member; only EPSG:4326 / CRS84 is accepted.'));
export const BoundaryGeometry = onFirstUse(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(Ring()).min(1).max(500), crs: LegacyCrsMember() }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(Ring()).min(1).max(500)).min(1).max(2000), crs: LegacyCrsMember() }),
], { error: 'boundary_geojson must be a GeoJSON geometry of type Polygon or MultiPolygon (send a Feature\'s `geometry`).' })
  .openapi('BoundaryGeometry', { description: 'GeoJSON Polygon or MultiPolygon in WGS 84 lon/lat; rings closed; exterior counter-clockwise (clockwise rings are rewound with a warning).' }));
