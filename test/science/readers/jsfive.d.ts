/** The part of jsfive (a pure-JS HDF5 reader; netCDF4 files are HDF5) the science tests use. */
declare module 'jsfive' {
  export class File {
    constructor(buffer: ArrayBuffer, filename: string);
    get(path: string): { value: unknown; shape: number[]; attrs: Record<string, unknown> };
    keys: string[];
  }
}
