import { write as writeShapefile } from '@mapbox/shp-write';
import { fflate } from '../../fflate';
import type { ShapefileBuilder, ShapefileWriter } from '../../application/deliverables/ports';
import type { ProjectedFeature, ShapefileLayerHead } from '../../domain/deliverables/ports';

/**
 * A layer as a zipped Shapefile (.shp .shx .dbf .prj .cpg, and its metadata as .shp.xml) through
 * @mapbox/shp-write. The dBASE header states each field's width, known only once every row is in:
 * the layer's rows are kept, as their values only, until the layer is zipped.
 */
export class ShpWriteShapefileWriter implements ShapefileWriter {
  open(layer: ShapefileLayerHead): ShapefileBuilder {
    const rows: Record<string, unknown>[] = [];
    const geometries: unknown[] = [];
    return {
      add(feature: ProjectedFeature) {
        // The dBASE writer leaves a null field blank, as it does an empty text.
        rows.push(Object.fromEntries(layer.fields.map((name) => [name, feature.properties[name] ?? null])));
        geometries.push((feature.geometry as { coordinates: unknown }).coordinates);
      },
      finish() {
        let files: { shp: DataView; shx: DataView; dbf: DataView } | undefined;
        writeShapefile(rows, layer.shapeType, geometries as never, (_error: unknown, written: typeof files) => {
          files = written;
        });
        const bytes = (view: DataView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
        const { strToU8, zipSync } = fflate();
        return Buffer.from(
          zipSync({
            [`${layer.name}.shp`]: bytes(files!.shp),
            [`${layer.name}.shx`]: bytes(files!.shx),
            [`${layer.name}.dbf`]: bytes(files!.dbf),
            [`${layer.name}.prj`]: strToU8(layer.prj),
            [`${layer.name}.cpg`]: strToU8('UTF-8'),
            [`${layer.name}.shp.xml`]: strToU8(layer.metadataXml),
          }),
        );
      },
    };
  }
}
