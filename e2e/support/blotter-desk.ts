import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { Page } from 'playwright-core';
import { newOrderSingle, TestFixClient, type ReceivedMessage } from '../../tests/support/fix-client';
import { BlotterPage } from '../pages/BlotterPage';
import { LoginPage } from '../pages/LoginPage';
import { E2E } from './fixture';

/**
 * The blotter specs' shared set-up: a server and a browser, a FIX client logged on as SGX_CLIENT_1,
 * and the helpers every blotter spec uses. Call once at the top of a spec file (it registers the
 * file's before/after hooks); `prefix` starts every ClOrdID the file sends.
 */
export function blotterDesk(prefix: string) {
  const e2e = new E2E();
  let client: TestFixClient | undefined;
  let clOrdSeq = 0;

  before(async () => {
    await e2e.start();
    client = new TestFixClient('SGX_CLIENT_1');
    await client.connect(e2e.server.fixPort);
  });
  after(async () => {
    await client?.stop();
    await e2e.stop();
  });

  /** AG Grid reports a missing module or a bad option as a console error and carries on: that is a bug here. */
  let gridErrors: string[] = [];
  afterEach(() => {
    const found = gridErrors;
    gridErrors = [];
    assert.deepEqual(found, [], 'no AG Grid errors in the console');
  });

  const fixClient = (): TestFixClient => {
    if (!client) throw new Error('the FIX client starts in the before hook');
    return client;
  };

  /** The FIX client, usable at the top of a spec; each use reaches the client the before hook started. */
  const clientView = new Proxy({} as TestFixClient, {
    get(_target, prop) {
      const c = fixClient();
      const value: unknown = Reflect.get(c, prop, c);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(c) : value;
    },
  });

  /** A fresh ClOrdID per order so tests never see each other's reports. */
  const nextClOrdId = (tag: string) => `${prefix}-${tag}-${++clOrdSeq}`;

  async function signInToBlotter(page: Page, username = 'broker'): Promise<BlotterPage> {
    page.on('console', (message) => {
      if (process.env.E2E_CONSOLE) console.log('PAGE', message.type(), message.text());
      if ((message.type() === 'error' || message.type() === 'warning') && /AG Grid/i.test(message.text())) gridErrors.push(message.text());
    });
    // Opened signed out, the blotter sends the user to Sign In and back once signed in: one page load
    // (the sign-in's landing page and a second load of /orders were the same screen reached twice).
    // The waits are the elements' (30 s), as on /login: the app's first load is what takes long under load.
    await page.goto('/orders');
    const login = new LoginPage(page);
    await login.username.waitFor();
    await login.signIn(username, e2e.passwordOf(username));
    const blotter = new BlotterPage(page);
    await blotter.waitReady();
    assert.equal(new URL(page.url()).pathname, '/orders', 'back on the blotter after signing in');
    return blotter;
  }

  /** Sends a NewOrderSingle from the FIX client and returns its broker order id from the Pending New report. */
  async function sendOrder(
    o: { side?: string; qty?: string; price?: string; ordType?: string; text?: string } = {},
    tag = 'O',
  ): Promise<{ clOrdId: string; id: string }> {
    const clOrdId = nextClOrdId(tag);
    const body = newOrderSingle(clOrdId, o);
    // The client's instructions (Text 58), before the parties group.
    if (o.text)
      body.splice(
        body.findIndex(([tag]) => tag === 453),
        0,
        [58, o.text],
      );
    await fixClient().send('D', body);
    const ack = await fixClient().waitForReport(clOrdId, (m) => m.get(150) === 'A');
    return { clOrdId, id: ack.get(37)! };
  }

  function reportsFor(clOrdId: string): ReceivedMessage[] {
    return fixClient().received.filter((m) => m.msgType === '8' && m.get(11) === clOrdId);
  }

  async function apiCall(token: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${e2e.server.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  return { e2e, client: clientView, nextClOrdId, signInToBlotter, sendOrder, reportsFor, apiCall };
}
