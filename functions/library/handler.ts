import { createGroupHandler } from '../../shared/http/pipeline';
import { libraryRoutes } from '../../shared/routes/library';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { queryResources } from './query-resources';
import { getResource } from './get-resource';
import { downloadResource } from './download-resource';

export const handler = createGroupHandler(libraryRoutes, { queryResources, getResource, downloadResource }, defaultPipelineDeps);
