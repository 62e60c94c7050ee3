// The fflate functions the project uses, imported by name so the bundles keep only these (and the
// tables they need) rather than the whole library; loaded through `shared/fflate.ts` on first use.
export { strToU8, Unzip, UnzipPassThrough, unzipSync, zipSync } from 'fflate';
