import * as z from 'zod';

// `.openapi()` lets the schemas that validate requests also carry their documentation. Only the
// OpenAPI generator reads it: function bundles other than docs are built with
// OPENAPI_METADATA=off (lib/app-function.ts), where `.openapi()` returns its schema unchanged and
// the extension is left out (each call would otherwise copy the schema at load).
if (process.env.OPENAPI_METADATA === 'off') {
  (z.ZodType.prototype as unknown as { openapi: () => unknown }).openapi = function openapi(this: unknown) {
    return this;
  };
} else {
  const { extendZodWithOpenApi } = require('@asteasolutions/zod-to-openapi') as typeof import('@asteasolutions/zod-to-openapi');
  // The extension touches only `ZodType.prototype`: handing it that alone and re-exporting zod with
  // `export *` (import this module as `import * as z`) lets esbuild keep just the zod functions a
  // bundle uses; passing or re-exporting the namespace object keeps all of it (~450 KB of locales).
  extendZodWithOpenApi({ ZodType: z.ZodType } as unknown as typeof z);
}

export * from 'zod';
