import { version } from '../../package.json';

/** The API's name and version, as the document and the health check give them. */
export const API_TITLE = 'Vulnerability Assessment Compliance API';
export const API_VERSION = version;
