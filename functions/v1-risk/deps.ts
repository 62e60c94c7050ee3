import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import type { SupplyKitDeps } from '../../shared/application/preparedness/supply-kit';
import type { RiskDeps } from '../../shared/application/risk/risk-answers';
import { wiring } from '../../shared/config';

/** What the risk routes run on. */
export interface RiskRouteDeps {
  risk: RiskDeps;
  kits: SupplyKitDeps;
}

export const riskRouteDeps = wiring((): RiskRouteDeps => ({
  risk: { tides: harmonicTides },
  kits: {
    pdf: {
      // Loaded on the first PDF only: requiring pdfkit takes 220–370 ms, which JSON and CSV answers need not pay at cold start.
      render: async (kit, generatedOn) => (await import('../../shared/adapters/renderers/kit-pdf')).pdfKitRenderer.render(kit, generatedOn),
    },
  },
}));
