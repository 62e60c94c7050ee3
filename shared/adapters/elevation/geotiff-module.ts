type GeoTiffModule = typeof import('geotiff');

let loading: Promise<GeoTiffModule> | undefined;

/**
 * geotiff, loaded with the first raster this process reads. Most requests of the functions that
 * read rasters read none, and the library is a large share of their start-up: the hazards
 * function installs it beside its bundle and loads it here, on first use. A failed load is tried
 * again on the next read.
 */
export function geotiff(): Promise<GeoTiffModule> {
  if (!loading) {
    loading = import('geotiff');
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}
