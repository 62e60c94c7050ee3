import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { queryResources } from './query-resources';
import { getResource } from './get-resource';
import { downloadResource } from './download-resource';

export const handler = createGroupHandler('library', { queryResources, getResource, downloadResource }, defaultPipelineDeps);
