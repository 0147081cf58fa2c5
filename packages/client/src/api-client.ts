/**
 * The one HTTP client of the web app. Every call goes through here so that the bearer
 * token, cookies, JSON handling, error messages and the "session ended" reaction are
 * the same everywhere. Screens never call fetch themselves.
 */

/** A non-2xx answer (or an unreadable one). `message` is the server's own text when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    /** The parsed JSON body, or null when the body was empty or not JSON. */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** The server's `field` when it named the offending input. */
  get field(): string | undefined {
    return isRecord(this.body) && typeof this.body.field === 'string' ? this.body.field : undefined;
  }
}

/** The request never produced an HTTP answer (server down, connection refused, aborted). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(override readonly cause: unknown) {
    super('Cannot reach the server. Check your connection and try again.');
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /**
   * What a 401 means for this call. 'signOut' (the default): the session is gone, so the
   * client reports it through onUnauthorized. 'report': the caller handles it (sign-in with
   * a wrong password, the start-up session check, logout).
   */
  on401?: 'signOut' | 'report';
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  /** Empty for same-origin. */
  baseUrl: string;
  /** The stored bearer token, if any; read on every request so sign-in/out take effect at once. */
  getToken: () => string | null;
  /** Called once per 401 on a call that did not opt out. */
  onUnauthorized: () => void;
}

export interface ApiClient {
  request<T>(path: string, options?: ApiRequestOptions): Promise<T>;
  /** A GET whose answer is read by the caller (a streamed file): the Response when it is ok; errors as request's. */
  stream(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<Response>;
  /** A POST whose answer is a file (a generated document): the Response when it is ok; errors as request's. */
  postForFile(path: string, body: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<Response>;
  get<T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  delete<T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server's explanation from an error body: `message` first, then `error`. */
export function serverMessage(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const key of ['message', 'error'] as const) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

function buildUrl(baseUrl: string, path: string, query: ApiRequestOptions['query']): string {
  let url = `${baseUrl}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.set(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  async function send(path: string, options: ApiRequestOptions, accept: string): Promise<Response> {
    const { method = 'GET', body, query, signal, on401 = 'signOut' } = options;
    const headers: Record<string, string> = { Accept: accept };
    // Every change goes as JSON, {} when it has nothing to say: the server refuses a change signed in by
    // the session cookie alone in any other form (a form post another page could make).
    const json = body !== undefined ? body : method === 'GET' ? undefined : {};
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    const token = deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    let response: Response;
    try {
      response = await deps.fetch(buildUrl(deps.baseUrl, path, query), {
        method,
        headers,
        credentials: 'include',
        body: json === undefined ? undefined : JSON.stringify(json),
        signal,
      });
    } catch (cause) {
      throw new NetworkError(cause);
    }
    if (!response.ok) {
      const parsed = await readBody(response);
      if (response.status === 401 && on401 === 'signOut') deps.onUnauthorized();
      throw new ApiError(serverMessage(parsed) ?? `Request failed (${response.status})`, response.status, parsed);
    }
    return response;
  }

  async function request<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
    const response = await send(path, options, 'application/json');
    return (await readBody(response)) as T;
  }

  return {
    request,
    stream: (path, options) => send(path, { ...options, method: 'GET' }, '*/*'),
    postForFile: (path, body, options) => send(path, { ...options, method: 'POST', body }, '*/*'),
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
  };
}
