import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, NetworkError, createApiClient } from './api-client';
import { REFERENCE_CALLS, ReferenceLoadError, loadReference, referenceLoadError, referenceStatus } from './reference-load';
import { createSimulatorApi } from './simulator-api';

function apiAnswering(respond: (url: string) => Response | Promise<Response>) {
  return createApiClient({
    baseUrl: '',
    getToken: () => null,
    onUnauthorized: () => undefined,
    fetch: (async (input: RequestInfo | URL) => respond(String(input))) as typeof fetch,
  });
}

describe('reference loads (spec 000 §7, §8)', () => {
  it('names the nine reference calls', () => {
    assert.equal(Object.keys(REFERENCE_CALLS).length, 9);
    assert.equal(REFERENCE_CALLS.securityMaster, 'Security Master');
  });

  it("says '{Name} API failed: {status}' with the HTTP status, not the server's message", async () => {
    const failed = await loadReference('securityMaster', () =>
      Promise.reject(new ApiError('Database unavailable', 503, { error: 'Database unavailable' })),
    ).catch((e: unknown) => e);
    assert.ok(failed instanceof ReferenceLoadError);
    assert.equal(failed.message, 'Security Master API failed: 503');
    assert.equal(failed.status, '503');
    assert.equal(failed.reference, 'securityMaster');
  });

  it('gives a network failure, an abort and an unreadable answer a status text', () => {
    assert.equal(
      referenceLoadError('clientConnectors', new NetworkError(new TypeError('Failed to fetch'))).message,
      'Client Connectors API failed: network error',
    );
    assert.equal(referenceStatus(new NetworkError(new DOMException('The operation was aborted.', 'AbortError'))), 'aborted');
    assert.equal(
      referenceLoadError('fixEnums', new TypeError("Cannot read properties of null (reading 'data')")).message,
      'FIX Enums API failed: unreadable answer',
    );
  });

  it('keeps an error already turned into a reference failure', () => {
    const first = referenceLoadError('fixFields', new ApiError('x', 500, null));
    assert.equal(referenceLoadError('latestPrices', first), first);
  });

  it('passes a successful load through', async () => {
    assert.deepEqual(await loadReference('brokerInformation', async () => [1, 2]), [1, 2]);
  });

  it("the simulators' reference calls fail with the spec's text", async () => {
    const sim = createSimulatorApi(
      apiAnswering((url) => new Response(JSON.stringify({ error: 'boom' }), { status: url.includes('security-master') ? 500 : 503 })),
    );
    await assert.rejects(sim.securities(), { message: 'Security Master API failed: 500' });
    await assert.rejects(sim.clientConnectors(), { message: 'Client Connectors API failed: 503' });
    await assert.rejects(sim.brokers(), { message: 'Broker Information API failed: 503' });
    await assert.rejects(sim.latestPrices(), { message: 'Latest Prices API failed: 503' });
    await assert.rejects(sim.mandatoryTags('D'), { message: 'FIX Message Specs API failed: 503' });
    const offline = createSimulatorApi(apiAnswering(() => Promise.reject(new TypeError('Failed to fetch'))));
    await assert.rejects(offline.securities(), { message: 'Security Master API failed: network error' });
  });
});
