import { AssetFileError } from '../../shared/domain/assets/file-error';
import { ImportDeadlineError } from '../../shared/domain/assets/import-assets';
import { RasterError } from '../../shared/domain/elevation-models/raster-error';
import { VerticalReferenceError } from '../../shared/domain/elevation-models/vertical';
import { jobFailureOf } from '../../shared/domain/job-failure';

/** A failed job's code comes from the class of what stopped it, whatever its message says. */
describe('job failure codes', () => {
  it('takes the code of each typed refusal and its message as the detail', () => {
    expect(jobFailureOf(new AssetFileError('outside_florida', 'No row lies in Florida.'))).toEqual({ code: 'outside_florida', detail: 'No row lies in Florida.' });
    expect(jobFailureOf(new RasterError('Only no-data cells.', 'no_valid_cells'))).toEqual({ code: 'no_valid_cells', detail: 'Only no-data cells.' });
    expect(jobFailureOf(new VerticalReferenceError('No shift stated.'))).toEqual({ code: 'invalid_vertical_reference', detail: 'No shift stated.' });
    expect(jobFailureOf(new ImportDeadlineError(1200))).toEqual({
      code: 'time_budget_exceeded',
      detail: 'The import ran out of its time budget after 1200 rows. Split the file, or start it again (assets already written are updated, not duplicated).',
    });
  });

  it('leaves any other error to be recorded as internal, even one whose message names a code', () => {
    expect(jobFailureOf(new Error('raster_too_large: the raster has 70000000 cells'))).toBeUndefined();
    expect(jobFailureOf({ code: 'no_valid_cells', message: 'a plain object' })).toBeUndefined();
    expect(jobFailureOf(undefined)).toBeUndefined();
  });
});
