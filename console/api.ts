import { ApiProblemError, createApiClient, type ApiClient, type Problem } from '../clients/typescript/src';

const KEY_STORAGE = 'vac-console-api-key';

/** The API this page was served by: `/api/console` → `/api`. */
export function apiBaseUrl(location: Location = window.location): string {
  return `${location.origin}${location.pathname.replace(/\/console\/?$/, '')}`;
}

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

export function clientFor(apiKey: string): ApiClient {
  return createApiClient({ baseUrl: apiBaseUrl(), apiKey });
}

/** The `/v1` user routes: sign-in without a credential, the rest with the user's access token. */
export function userClient(accessToken?: string): ApiClient {
  return createApiClient({ baseUrl: apiBaseUrl(), ...(accessToken ? { accessToken } : {}) });
}

/** A failure in words: the API's problem (title, detail, code) when it answered one. */
export interface FailureInWords {
  title: string;
  detail: string;
  code: string | null;
  /** Invalid input: each field the API named, with its message. */
  fields: string[];
}

export function describeFailure(failure: unknown): FailureInWords {
  if (failure instanceof ApiProblemError) {
    const problem: Problem | undefined = failure.problem;
    if (problem) {
      return { title: problem.title, detail: problem.detail, code: problem.code, fields: (problem.errors ?? []).map((error) => `${error.field}: ${error.message}`) };
    }
    return { title: `The API answered HTTP ${failure.status}`, detail: 'The answer carried no problem detail.', code: null, fields: [] };
  }
  // A step the console refused itself (nothing chosen yet, a job that never ended), or a network failure.
  return { title: 'The step could not be done', detail: failure instanceof Error ? failure.message : String(failure), code: null, fields: [] };
}
