import * as z from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

// Adds `.openapi()` so the schemas that validate requests also carry their documentation. The
// extension only touches `ZodType.prototype`: handing it that alone and re-exporting zod with
// `export *` (import this module as `import * as z`) lets esbuild keep just the zod functions a
// bundle uses; passing or re-exporting the namespace object keeps all of it (~450 KB of locales).
extendZodWithOpenApi({ ZodType: z.ZodType } as unknown as typeof z);

export * from 'zod';
