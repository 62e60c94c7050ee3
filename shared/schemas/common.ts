import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { PROBLEM_TYPES } from '../http/problem';
import { decimalFromText } from '../domain/decimal-text';

export const ProblemSchema = onFirstUse(() => z.object({
  type: z.string().max(200).openapi({ example: '/api/docs#error-invalid_request' }),
  title: z.string().max(200),
  status: z.number().int().min(100).max(599),
  detail: z.string().max(4000),
  instance: z.string().max(200).describe('The request id; quote it when reporting a problem.'),
  code: z.enum(Object.keys(PROBLEM_TYPES) as [keyof typeof PROBLEM_TYPES, ...(keyof typeof PROBLEM_TYPES)[]]),
  errors: z.array(z.object({
    field: z.string().max(200),
    in: z.enum(['path', 'query', 'header', 'body']).optional(),
    message: z.string().max(1000),
  })).max(500).optional(),
}).openapi('Problem', { description: 'RFC 9457 problem details with a stable machine `code`.' }));

export const IsoDate = onFirstUse(() => z.string().max(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a calendar date'));

/**
 * A number sent as text (query strings, form fields), in decimal notation only: z.coerce.number()
 * would read '' as 0, '0x1B' as 27, and true or null in a JSON body as 1 or 0.
 */
export function decimalParam<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    const number = decimalFromText(text);
    if (!Number.isNaN(number)) return number;
    ctx.issues.push({ code: 'custom', message: `Not a decimal number: "${text.slice(0, 40)}"`, input: value });
    return z.NEVER;
  }, schema);
}

export const LimitParam = onFirstUse(() => decimalParam(z.number().int().min(1).max(100)).default(20).describe('Page size (1–100).'));
export const CursorParam = onFirstUse(() => z.string().min(1).max(2000).optional().describe('Opaque cursor from `next_cursor` of the previous page.'));

export const IdempotencyHeaders = onFirstUse(() => z.object({
  'idempotency-key': z.string().min(8).max(128).regex(/^[A-Za-z0-9_.:-]+$/).optional()
    .describe('Repeat a request safely: the same key and body return the stored response; another body is 422.'),
}));

export const IfMatchHeaders = onFirstUse(() => z.object({
  'if-match': z.string().min(1).max(100).describe('Required: the ETag from your last read (`"3"`). Without it the answer is 428 `precondition_required`; if the record changed since, 409 `conflict` and nothing is written.'),
}));
