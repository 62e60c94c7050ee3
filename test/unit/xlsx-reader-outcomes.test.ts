import { Readable } from 'node:stream';
import { readXlsx } from '../../shared/domain/assets/formats/xlsx';
import { deflatedRepeat, honestEntry, zipArchive } from '../fixtures/assets/zip-bomb';

/**
 * What the reader answers for each way its workbook parser can end, with the parser replaced by
 * one that reads its whole input and then throws, ends without a worksheet, or never answers. The
 * real parser picks one of these depending on where an archive is cut; the answer must depend only
 * on the input: file_too_large when the budget was passed, malformed_xlsx otherwise.
 */

let mockEnding: 'throw' | 'no-sheet' | 'hang' = 'throw';

jest.mock('exceljs', () => ({
  __esModule: true,
  default: {
    stream: {
      xlsx: {
        WorkbookReader: class {
          constructor(private readonly input: AsyncIterable<Buffer>) {}
          async *[Symbol.asyncIterator]() {
            // Read to the end; like exceljs, take an input that fails as one that ended.
            try {
              for await (const _chunk of this.input) { /* parse */ }
            } catch { /* ended */ }
            if (mockEnding === 'throw') throw new Error('unexpected end of archive');
            if (mockEnding === 'hang') await new Promise(() => {});
          }
        },
      },
    },
  },
}));

const GiB = 1024 ** 3;

/** A workbook whose shared strings inflate to 2 GiB: past the reader's budget. */
function bomb(): Buffer {
  const strings = deflatedRepeat('<si><t>bomb</t></si>', 2 * GiB, '<sst>');
  return zipArchive([honestEntry('[Content_Types].xml', '<Types/>'), { name: 'xl/sharedStrings.xml', deflated: strings.deflated, declaredSize: strings.size }]);
}

/** Reads the file as an upload arrives, in 16 KiB chunks: the budget is passed after the reader started. */
async function outcome(file: Buffer): Promise<unknown> {
  const chunks = Array.from({ length: Math.ceil(file.length / 16_384) }, (_, i) => file.subarray(i * 16_384, (i + 1) * 16_384));
  try {
    for await (const _record of readXlsx(Readable.from(chunks), { idleMs: 5_000, endGraceMs: 100 })) { /* drain */ }
    return 'read';
  } catch (error) {
    return error;
  }
}

describe('the workbook reader\'s answer, whatever its parser does at the end of the input', () => {
  it.each([['throw'], ['no-sheet']] as const)('is file_too_large after the budget was passed, when the parser then does "%s"', async (ending) => {
    mockEnding = ending;
    expect(await outcome(bomb())).toMatchObject({ code: 'file_too_large', message: expect.stringContaining('xl/sharedStrings.xml') });
  });

  it('is malformed_xlsx for an archive that holds no worksheet', async () => {
    mockEnding = 'no-sheet';
    expect(await outcome(zipArchive([honestEntry('[Content_Types].xml', '<Types/>')]))).toMatchObject({ code: 'malformed_xlsx', message: expect.stringContaining('no worksheet') });
  });

  it('says the workbook ends before its last part when the parser waits for more after the input ended', async () => {
    mockEnding = 'hang';
    expect(await outcome(zipArchive([honestEntry('[Content_Types].xml', '<Types/>')]))).toMatchObject({ code: 'malformed_xlsx', message: expect.stringContaining('ends before its last part') });
  });
});
