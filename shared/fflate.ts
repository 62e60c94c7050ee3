import { onFirstUse } from './on-first-use';

/** fflate builds its Huffman tables when it loads (10–20 ms of CPU); only zip and gzip work needs it. */
export const fflate = onFirstUse(() => require('fflate') as typeof import('fflate'));
