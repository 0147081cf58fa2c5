import {
  CancelOrderSchema,
  ReplaceOrderSchema,
  SendOrderSchema,
  type ClientBlotterResponse,
  type SendOrderResponse,
  type TestClientControlResponse,
  type TestClientHealth,
  type TestClientStatus,
} from '@fixdesk/protocol';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { HttpError, parse } from '../http/errors';
import type { TestClient } from './client';
import { MessageCheckError } from './message-check';

/** What the control API answers for GET /status. */
type TestClientStatusResponse = TestClientStatus & { success: true };

function asHttpError(err: unknown): never {
  if (err instanceof MessageCheckError) throw new HttpError(400, err.message, err.tag !== undefined ? String(err.tag) : 'fixMessage');
  throw err;
}

/**
 * The control API of spec 000 §7, mounted twice: at the root of each client's own localhost port, and
 * under the main server's proxy path (/test-client/:compId) behind sign-in. `resolve` finds the client
 * a request is about (and answers 404 when there is none).
 */
export function registerControlApi(
  app: FastifyInstance,
  prefix: string,
  resolve: (req: FastifyRequest) => TestClient,
  options: RouteShorthandOptions = {},
): void {
  app.get(`${prefix}/status`, options, async (req): Promise<TestClientStatusResponse> => ({
    success: true,
    ...(await resolve(req).status()),
  }));

  app.get(`${prefix}/health`, options, async (req): Promise<TestClientHealth> => resolve(req).health());

  app.post(`${prefix}/connect`, options, async (req): Promise<TestClientControlResponse> => {
    const client = resolve(req);
    const loggedOn = await client.connect();
    const status = await client.status();
    if (loggedOn) return { success: true, message: `FIX client ${client.compId} logged on`, status };
    return {
      success: false,
      error: `FIX client ${client.compId} started but not logged on yet${status.lastEvent ? `: ${status.lastEvent}` : ''}; it keeps retrying until stopped`,
      status,
    };
  });

  app.post(`${prefix}/disconnect`, options, async (req): Promise<TestClientControlResponse> => {
    const client = resolve(req);
    const wasRunning = client.running;
    await client.disconnect();
    return {
      success: true,
      message: wasRunning ? `FIX client ${client.compId} logged out and stopped` : `FIX client ${client.compId} was not running`,
      status: await client.status(),
    };
  });

  app.post(`${prefix}/send-order`, options, async (req): Promise<SendOrderResponse> => {
    const client = resolve(req);
    const { fixMessage } = parse(SendOrderSchema, req.body, 'body');
    return client.sendRaw(fixMessage).catch(asHttpError);
  });

  app.post(`${prefix}/cancel-order`, options, async (req): Promise<SendOrderResponse> => {
    const client = resolve(req);
    const body = parse(CancelOrderSchema, req.body, 'body');
    return client.cancel(body).catch(asHttpError);
  });

  app.post(`${prefix}/replace-order`, options, async (req): Promise<SendOrderResponse> => {
    const client = resolve(req);
    const body = parse(ReplaceOrderSchema, req.body, 'body');
    return client.replace(body).catch(asHttpError);
  });

  app.get(`${prefix}/orders`, options, async (req): Promise<ClientBlotterResponse> => resolve(req).blotterSnapshot());
}
