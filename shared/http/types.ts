import type { AccountContext } from '../ports';
import type { BearerUser } from '../domain/identity/signed-in-user';
import type * as z from 'zod';
import type { BodyOf, ParamsOf, QueryOf, RouteDef } from '../routes/types';

type FormDefOf<R extends RouteDef> = NonNullable<R['request']>['form'];

/** One uploaded file of a multipart form. */
export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** The parsed parts of a multipart form: its validated text fields, its file part, every file part. */
export interface ParsedForm<F> {
  fields: F;
  file: MultipartFile;
  files: MultipartFile[];
}

type FormFrom<D> = D extends { fields: () => infer F extends z.ZodType } ? ParsedForm<z.infer<F>> : undefined;

/** A route's parsed form, typed by its `request.form` (for any route, RouteDef itself: maybe one). */
export type FormOf<R extends RouteDef> = FormFrom<FormDefOf<R>>;

export interface RateLimitState {
  limit: number | null;
  used: number;
  remaining: number | null;
  resetSeconds: number;
  resetAt: Date;
}

export interface RouteRequest<R extends RouteDef = RouteDef> {
  route: R;
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  /** A multipart body's parts, validated (routes with `request.form`). */
  form: FormOf<R>;
  /** The undecoded body; empty when there is none. */
  rawBody: Buffer;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Present on every route that needs a key, and on bearer routes (the user's account). */
  account: AccountContext | undefined;
  /** Present on every `auth: 'bearer'` route: the signed-in user (see shared/http/bearer.ts). */
  user: BearerUser | undefined;
  /** The caller's address as the gateway saw it (API Gateway's `sourceIp`). */
  clientIp: string;
  rate: RateLimitState | undefined;
  /** The version `If-Match` names, on routes that require it (`requiresIfMatch`). */
  ifMatch?: number;
  requestId: string;
  /** Public base URL of the stage, e.g. `http://127.0.0.1:3000/api`. */
  baseUrl: string;
  now: Date;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** Binary or pre-serialised payload (exports, HTML, redirects carry none). */
  rawBody?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
}

export type RouteImplementation<R extends RouteDef = RouteDef> = (request: RouteRequest<R>) => Promise<RouteResult>;
