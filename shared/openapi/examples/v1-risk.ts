import type { OperationExample } from './types';

/** A resident signs up, then asks for the risk at an address, the hazards at a point and a household kit (answers recorded from the local server). */
export const v1RiskExamples: OperationExample[] = [
  {
    operationId: 'registerUser',
    setup: true,
    request: {
      body: {
        email: 'rosa.resident@example.org',
        password: 'Keys-Sea-Level-2026!',
        name: 'Rosa Resident',
        role: 'resident',
      },
    },
    response: { status: 201 },
  },
  {
    operationId: 'login',
    setup: true,
    request: {
      body: {
        email: 'rosa.resident@example.org',
        password: 'Keys-Sea-Level-2026!',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'calculateRisk',
    request: {
      query: {
        lat: '24.5551',
        lon: '-81.78',
        hazards: 'HRCN,CFLD',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'hazardsAtLocation',
    request: {
      query: {
        lat: '27.7676',
        lon: '-82.6403',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'generateSupplies',
    request: {
      query: {
        adults: '2',
        children: '1',
        pets: '1',
        hazard: 'hurricane',
      },
    },
    response: { status: 200 },
  },
];
