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

/** A failure in words: the API's problem (title, detail, code) when it answered one. */
export function describeFailure(failure: unknown): { title: string; detail: string; code: string | null } {
  if (failure instanceof ApiProblemError) {
    const problem: Problem | undefined = failure.problem;
    if (problem) return { title: problem.title, detail: problem.detail ?? '', code: problem.code };
    return { title: `The API answered HTTP ${failure.status}`, detail: 'The answer carried no problem detail.', code: null };
  }
  return { title: 'The request did not reach the API', detail: failure instanceof Error ? failure.message : String(failure), code: null };
}
