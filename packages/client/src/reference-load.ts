import { ApiError, NetworkError } from './api-client';

/**
 * The nine reference calls of spec 000 §7 and the name each one's failure carries: 'Security Master
 * API failed: {status}' and likewise for the other eight (spec 000 §8).
 */
export const REFERENCE_CALLS = {
  securityMaster: 'Security Master',
  clientConnectors: 'Client Connectors',
  clientCapabilities: 'Client Capabilities',
  fixMessageSpecs: 'FIX Message Specs',
  fixFields: 'FIX Fields',
  fixEnums: 'FIX Enums',
  latestPrices: 'Latest Prices',
  brokerInformation: 'Broker Information',
  repeatingGroupFields: 'Repeating Group Fields',
} as const;

export type ReferenceCall = keyof typeof REFERENCE_CALLS;

/** A reference load that failed; `message` is the spec's text, `status` the HTTP status or why none came. */
export class ReferenceLoadError extends Error {
  override readonly name = 'ReferenceLoadError';
  constructor(
    readonly reference: ReferenceCall,
    readonly status: string,
    override readonly cause: unknown,
  ) {
    super(`${REFERENCE_CALLS[reference]} API failed: ${status}`);
  }
}

/**
 * The {status} of a failed reference load: the HTTP status of an answer, else why there was none
 * ('network error' when the server could not be reached, 'aborted' when the page let go of the call,
 * 'unreadable answer' when an answer came but could not be read).
 */
export function referenceStatus(error: unknown): string {
  if (error instanceof ReferenceLoadError) return error.status;
  if (error instanceof ApiError) return String(error.status);
  if (error instanceof NetworkError) {
    const cause = error.cause;
    return cause instanceof Error && cause.name === 'AbortError' ? 'aborted' : 'network error';
  }
  return 'unreadable answer';
}

/** The error a failed reference load throws (an error already turned into one is kept as it is). */
export function referenceLoadError(reference: ReferenceCall, error: unknown): ReferenceLoadError {
  return error instanceof ReferenceLoadError ? error : new ReferenceLoadError(reference, referenceStatus(error), error);
}

/** Runs one reference load; a failure is thrown as a ReferenceLoadError saying which call failed and how. */
export async function loadReference<T>(reference: ReferenceCall, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw referenceLoadError(reference, error);
  }
}
