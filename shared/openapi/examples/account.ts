import type { OperationExample } from './types';

/** Usage and a webhook from creation to deletion. */
export const accountExamples: OperationExample[] = [
  {
    operationId: 'getUsage',
    response: {
      status: 200,
      body: {
        requests_used: 8,
        limit: 25,
        remaining: 17,
        reset_time: '2026-11-23T18:00:00.000Z',
        window_start: '2026-11-23T17:00:00.000Z',
        subscription_tier: 'free',
      },
    },
  },
  {
    operationId: 'createWebhook',
    request: {
      body: { webhook_url: 'https://hooks.example.org/va', events: ['assessment_complete', 'deadline_reminder'] },
    },
    response: {
      status: 201,
      body: {
        webhook_id: 'wh_8f14e45fceea167a5a36dedd',
        webhook_url: 'https://hooks.example.org/va',
        events: ['assessment_complete', 'deadline_reminder'],
        created_at: '2026-11-23T17:48:29.394Z',
        secret: 'whsec_7TYiaQungIJa3A0qld2S14Hn0u5TP7EHokO9Xk8KZzU=',
      },
    },
  },
  {
    operationId: 'listWebhooks',
    response: {
      status: 200,
      body: {
        data: [
          {
            webhook_id: 'wh_8f14e45fceea167a5a36dedd',
            webhook_url: 'https://hooks.example.org/va',
            events: ['assessment_complete', 'deadline_reminder'],
            created_at: '2026-11-23T17:48:29.394Z',
          },
        ],
        next_cursor: null,
      },
    },
  },
  {
    operationId: 'testWebhook',
    request: { params: { id: 'wh_8f14e45fceea167a5a36dedd' } },
    response: {
      status: 202,
      body: {
        event_id: 'evt_test_53a96c266a1e23221718dce4',
        webhook_id: 'wh_8f14e45fceea167a5a36dedd',
        event_type: 'webhook_test',
        status: 'queued',
      },
    },
  },
  {
    operationId: 'listWebhookDeliveries',
    request: { params: { id: 'wh_8f14e45fceea167a5a36dedd' } },
    response: { status: 200, body: { data: [], next_cursor: null } },
  },
  {
    operationId: 'deleteWebhook',
    request: { params: { id: 'wh_8f14e45fceea167a5a36dedd' } },
    response: { status: 204 },
  },
];
