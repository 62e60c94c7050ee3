import type * as z from 'zod';
import { HttpError, type FieldError } from './problem';

type Location = NonNullable<FieldError['in']>;

/** The one reading of zod issues as a problem's `errors`: each unknown key is named on its own. */
export function fieldErrorsOf(error: z.ZodError, location: Location): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: path ? `${path}.${key}` : key, in: location, message: 'Unknown field' }));
    }
    return [{ field: path || '(root)', in: location, message: issue.message }];
  });
}

/** 400 `invalid_request` naming every rejected field. */
export function invalidRequest(errors: FieldError[]): HttpError {
  return new HttpError('invalid_request', `${errors.length} field${errors.length > 1 ? 's are' : ' is'} invalid: ${errors.map((e) => e.field).join(', ')}.`, { errors });
}
