import { onFirstUse } from './on-first-use';

/** fflate builds its Huffman tables when it loads (10–20 ms of CPU); only zip archives need it. */
export const fflate = onFirstUse(() => require('./fflate-functions') as typeof import('./fflate-functions'));
