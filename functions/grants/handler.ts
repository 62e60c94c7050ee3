import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { checkGrantEligibility } from './eligibility';
import { listGrantDeadlines } from './deadlines';
import { rankGrantProject } from './ranking';

export const handler = createGroupHandler('grants', { checkGrantEligibility, listGrantDeadlines, rankGrantProject }, defaultPipelineDeps);
