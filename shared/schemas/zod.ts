import * as z from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

// Adds `.openapi()` so the schemas that validate requests also carry their documentation.
extendZodWithOpenApi(z);

export { z };
