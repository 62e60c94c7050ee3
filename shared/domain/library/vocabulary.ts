export const RESOURCE_CATEGORIES = ['legal', 'guidance', 'science', 'data', 'gis_standards', 'funding', 'case_study'] as const;
export const RESOURCE_FILE_TYPES = ['pdf', 'html', 'xlsx', 'csv', 'zip', 'json', 'xml', 'docx', 'geojson', 'txt', 'api'] as const;
/** `confirmed`: the publisher's own copy was checked; only then does an entry link a document. */
export const URL_STATUSES = ['confirmed', 'unconfirmed'] as const;
