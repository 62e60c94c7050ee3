import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { getUsage } from './usage';

export const handler = createGroupHandler('account', { getUsage }, defaultPipelineDeps);
