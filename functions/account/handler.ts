import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { getUsage } from './usage';
import { createWebhook, deleteWebhook, listWebhookDeliveries, listWebhooks, testWebhook } from './webhooks';

export const handler = createGroupHandler('account', { getUsage, createWebhook, listWebhooks, deleteWebhook, listWebhookDeliveries, testWebhook }, defaultPipelineDeps);
