/**
 * The console's calls to /v1, authenticated by the session cookie. Every change carries the
 * session's CSRF token (X-CSRF-Token); the server refuses changes without it.
 */
export interface ErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when the server answers 401: the session ended (expired, signed out elsewhere). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

export async function api<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(`/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiFailure(response.status, 'bad_response', `The server answered ${response.status} without JSON.`);
  }
  if (!response.ok) {
    const error = (data as { error?: ErrorBody } | undefined)?.error;
    if (response.status === 401 && !path.startsWith('/console/sign-in')) onSignedOut();
    throw new ApiFailure(
      response.status,
      error?.code ?? 'error',
      error?.message ?? `The server answered ${response.status}.`,
      error?.details,
    );
  }
  return data as T;
}

export const errorText = (err: unknown): string =>
  err instanceof ApiFailure ? err.message : err instanceof Error ? err.message : String(err);
