import { accountRoutes } from './account';
import { assessmentRoutes } from './assessments';
import { assetRoutes } from './assets';
import { complianceRoutes } from './compliance';
import { docsRoutes } from './docs';
import { elevationModelRoutes } from './elevation-models';
import { grantRoutes } from './grants';
import { hazardRoutes } from './hazards';
import { libraryRoutes } from './library';
import { v1IdentityRoutes } from './v1-identity';
import { v1RiskRoutes } from './v1-risk';
import { v1TrainingRoutes } from './v1-training';
import type { FunctionGroup, RouteDef } from './types';

/**
 * The route table: every route of the API, declared once. The CDK stack builds API Gateway
 * resources from it, the local gateway matches requests against it, each function's pipeline
 * validates with its schemas, and the OpenAPI generator documents it.
 */
export const ROUTES: readonly RouteDef[] = [
  ...docsRoutes,
  ...libraryRoutes,
  ...assessmentRoutes,
  ...assetRoutes,
  ...hazardRoutes,
  ...elevationModelRoutes,
  ...grantRoutes,
  ...complianceRoutes,
  ...accountRoutes,
  ...v1IdentityRoutes,
  ...v1RiskRoutes,
  ...v1TrainingRoutes,
];

export function routesOfGroup(group: FunctionGroup): RouteDef[] {
  return ROUTES.filter((route) => route.group === group);
}
