import { createGroupHandler } from '../../shared/http/pipeline';
import { accountRoutes } from '../../shared/routes/account';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { getUsage } from './usage';
import { createWebhook, deleteWebhook, listWebhookDeliveries, listWebhooks, testWebhook } from './webhooks';

export const handler = createGroupHandler(accountRoutes, { getUsage, createWebhook, listWebhooks, deleteWebhook, listWebhookDeliveries, testWebhook }, defaultPipelineDeps);
