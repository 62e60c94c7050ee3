import { onFirstUse } from './on-first-use';

/**
 * proj4 registers its projections and datums when it loads (about 5 ms of CPU); only files and
 * models in a projected coordinate system need it.
 */
export const proj4 = onFirstUse(() => require('proj4') as typeof import('proj4'));
