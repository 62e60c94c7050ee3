import type { OperationExample } from './types';

/** The resource library. */
export const libraryExamples: OperationExample[] = [
  {
    operationId: 'queryResources',
    request: { query: { action: 'search', q: 'sea level rise technical report', limit: '2' } },
    response: {
      status: 200,
      body: {
        data: [
          {
            id: 'noaa-2022-slr-scenarios-technical-report',
            title: 'Global and Regional Sea Level Rise Scenarios for the United States: Updated Mean Projections and Extreme Water Level Probabilities Along U.S. Coastlines (NOAA Technical Report NOS 01)',
            file_path: null,
            category: 'science',
            file_type: 'pdf',
            publisher: 'NOAA National Ocean Service (Sweet et al., Interagency Sea Level Rise Task Force)',
            published: '2022',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/noaa-nos-techrpt01-global-regional-SLR-scenarios-US.pdf',
            url_status: 'confirmed',
            summary: 'The 2022 interagency report giving five U.S. sea level rise scenarios (Low to High) to 2150, with local values at tide gauges and near-term high-tide-flood frequencies. It is the current federal scenario set, replacing the 2017 report.',
            tags: ['noaa', 'sweet 2022', 'sea level rise scenarios', 'technical report', 'tide gauges'],
            evidence: 'Title and 2022 date at https://sealevel.nasa.gov/faq/16/ and https://www.globalchange.gov/about/highlights/updated-interagency-sea-level-rise-scenarios; PDF URL in citations in public GitHub source files; report page referenced in philiprt/us-htf-projections-itf2022 README.md',
            notes: null,
            views: 0,
            downloads: 0,
            score: 329.772,
          },
        ],
        total: 38,
        query: 'sea level rise technical report',
      },
    },
  },
  {
    operationId: 'getResource',
    request: { params: { id: 'noaa-2022-slr-scenarios-technical-report' } },
    response: {
      status: 200,
      body: {
        id: 'noaa-2022-slr-scenarios-technical-report',
        title: 'Global and Regional Sea Level Rise Scenarios for the United States: Updated Mean Projections and Extreme Water Level Probabilities Along U.S. Coastlines (NOAA Technical Report NOS 01)',
        file_path: null,
        category: 'science',
        file_type: 'pdf',
        publisher: 'NOAA National Ocean Service (Sweet et al., Interagency Sea Level Rise Task Force)',
        published: '2022',
        url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/noaa-nos-techrpt01-global-regional-SLR-scenarios-US.pdf',
        url_status: 'confirmed',
        summary: 'The 2022 interagency report giving five U.S. sea level rise scenarios (Low to High) to 2150, with local values at tide gauges and near-term high-tide-flood frequencies. It is the current federal scenario set, replacing the 2017 report.',
        tags: ['noaa', 'sweet 2022', 'sea level rise scenarios', 'technical report', 'tide gauges'],
        evidence: 'Title and 2022 date at https://sealevel.nasa.gov/faq/16/ and https://www.globalchange.gov/about/highlights/updated-interagency-sea-level-rise-scenarios; PDF URL in citations in public GitHub source files; report page referenced in philiprt/us-htf-projections-itf2022 README.md',
        notes: null,
        views: 1,
        downloads: 0,
      },
    },
  },
  {
    operationId: 'downloadResource',
    request: { params: { id: 'noaa-2022-slr-scenarios-technical-report' } },
    response: {
      status: 302,
      headers: {
        Location: 'https://oceanservice.noaa.gov/hazards/sealevelrise/noaa-nos-techrpt01-global-regional-SLR-scenarios-US.pdf',
      },
    },
  },
];
