import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';

export const handler = createGroupHandler('assets', {}, defaultPipelineDeps);
