import { createGroupHandler } from '../../shared/http/pipeline';
import { grantRoutes } from '../../shared/routes/grants';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { checkGrantEligibility } from './eligibility';
import { listGrantDeadlines } from './deadlines';
import { rankGrantProject } from './ranking';

export const handler = createGroupHandler(grantRoutes, { checkGrantEligibility, listGrantDeadlines, rankGrantProject }, defaultPipelineDeps);
