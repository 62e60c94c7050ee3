import type { OperationExample } from './types';

/** Usage and a webhook from creation to deletion. */
export const accountExamples: OperationExample[] = [
  {
    operationId: 'getUsage',
    response: { status: 200 },
  },
  {
    operationId: 'createWebhook',
    request: {
      body: { webhook_url: 'https://hooks.example.org/va', events: ['assessment_complete', 'deadline_reminder'] },
    },
    response: { status: 201 },
  },
  {
    operationId: 'listWebhooks',
    response: { status: 200 },
  },
  {
    operationId: 'testWebhook',
    request: { params: { id: 'wh_674049146790223463764805' } },
    response: { status: 202 },
  },
  {
    operationId: 'listWebhookDeliveries',
    request: { params: { id: 'wh_674049146790223463764805' } },
    response: { status: 200 },
  },
  {
    operationId: 'deleteWebhook',
    request: { params: { id: 'wh_674049146790223463764805' } },
    response: { status: 204 },
  },
];
