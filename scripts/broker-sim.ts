// npm run broker-sim: the Broker Simulator's auto mode without a browser, for demos and load tests.
// The same engine as the /broker-simulator screen (apps/web/src/services/simulators/brokerSimulator.ts),
// over the web app's own HTTP client and live WebSocket client, signed in as a broker.
//
//   FIXDESK_URL            server address (default http://127.0.0.1:$PORT or :3000)
//   BROKER_SIM_USER        user to sign in as (default broker)
//   BROKER_SIM_PASSWORD    its password (default DEMO_PASSWORD)
//   BROKER_SIM_ACCEPT_DELAY, BROKER_SIM_FILL_DELAY   seconds, 1 to 10 (defaults 2 and 3)
import WebSocket from 'ws';
import { createApiClient } from '@fixdesk/client';
import { createLiveClient, type SocketLike } from '@fixdesk/client';
import { BROKER_SIM_DEFAULTS, BROKER_SIM_USER_ID, BrokerSimulator, delayProblem, type SimActivity } from '@fixdesk/client';
import { createSimulatorApi } from '@fixdesk/client';

function fail(message: string): never {
  console.error(`broker-sim: ${message}`);
  process.exit(2);
}

function delay(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const problem = delayProblem(name, raw);
  if (problem) fail(problem);
  return Number(raw);
}

const baseUrl = (process.env.FIXDESK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
const username = process.env.BROKER_SIM_USER ?? 'broker';
const password = process.env.BROKER_SIM_PASSWORD ?? process.env.DEMO_PASSWORD;
if (!password) fail('set BROKER_SIM_PASSWORD (or DEMO_PASSWORD for the demo broker account)');
const acceptDelaySec = delay('BROKER_SIM_ACCEPT_DELAY', BROKER_SIM_DEFAULTS.acceptDelaySec);
const fillDelaySec = delay('BROKER_SIM_FILL_DELAY', BROKER_SIM_DEFAULTS.fillDelaySec);

const time = () => new Date().toISOString().slice(11, 23);
const log = (text: string) => console.log(`${time()} ${text}`);

async function signIn(): Promise<string> {
  let r: Response;
  try {
    r = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
  } catch (err) {
    fail(`cannot reach ${baseUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const body = (await r.json().catch(() => ({}))) as { token?: string; message?: string; user?: { role?: string } };
  if (!r.ok || !body.token) fail(`sign-in as ${username} failed: ${body.message ?? r.status}`);
  if (body.user?.role !== 'broker' && body.user?.role !== 'admin')
    fail(`${username} is ${body.user?.role}; trading needs a broker or admin`);
  return body.token;
}

async function main(): Promise<void> {
  const token = await signIn();
  const api = createApiClient({
    fetch: (...args) => fetch(...args),
    baseUrl,
    getToken: () => token,
    onUnauthorized: () => fail('the server ended the session (401); sign in again by restarting'),
  });
  const simApi = createSimulatorApi(api);
  let ticks = new Map<string, string>();
  let prices: Awaited<ReturnType<typeof simApi.latestPrices>> = [];

  const engine = new BrokerSimulator(
    {
      api: simApi,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
      random: Math.random,
      now: Date.now,
      tickSize: (symbol) => ticks.get(symbol) ?? null,
      latestPrices: () => prices,
    },
    { auto: true, acceptDelaySec, fillDelaySec },
  );

  // Print each activity line once, oldest first.
  let printed = 0;
  let newest: SimActivity | undefined;
  engine.subscribe(() => {
    const { activity, counters } = engine.getState();
    if (activity[0] === newest) return;
    const fresh = newest ? activity.slice(0, activity.indexOf(newest) < 0 ? activity.length : activity.indexOf(newest)) : activity;
    for (const a of [...fresh].reverse()) {
      printed++;
      log(
        `${a.level === 'error' ? 'ERROR ' : ''}${a.brokerOrderId} ${a.text}  [pending ${counters.pending}, active ${counters.active}, done today ${counters.completedToday}, processed ${counters.processed}]`,
      );
    }
    newest = activity[0];
  });

  const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/ws`;
  const live = createLiveClient({
    url: () => wsUrl,
    getToken: () => token,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    now: Date.now,
    warn: () => {},
  });
  live.subscribe('new_order', (m) => engine.onOrder(m.orderData));
  live.subscribe('order_update', (m) => engine.onOrder(m.orderData));

  // Snapshot after every (re)authentication; live messages keep it current in between.
  let session = 0;
  // The live client keeps retrying by itself (back-off capped at 30 s): a headless run keeps going.
  let lostLogged = false;
  live.onState(() => {
    const s = live.getState();
    if (s.status === 'refused') fail(`the live connection was refused: ${s.lastError ?? ''}`);
    if (s.status === 'reconnecting' && !lostLogged) {
      lostLogged = true;
      log(`live connection lost (${s.lastError ?? 'no answer'}); reconnecting`);
    }
    if (s.status === 'connected') lostLogged = false;
    if (s.status === 'connected' && s.session !== session) {
      session = s.session;
      void Promise.all([simApi.orders(), simApi.securities(), simApi.latestPrices().catch(() => [])])
        .then(([orders, securities, latest]) => {
          ticks = new Map(securities.filter((x) => x.price_tick_size).map((x) => [x.symbol, x.price_tick_size!]));
          prices = latest;
          engine.loadOrders(orders);
          const c = engine.getState().counters;
          log(
            `connected to ${baseUrl} as ${username} (actions recorded with userId ${BROKER_SIM_USER_ID}); ${orders.length} orders, ${c.pending} pending`,
          );
        })
        .catch((err) => log(`ERROR loading the orders: ${err instanceof Error ? err.message : String(err)}`));
    }
  });
  live.hold();
  log(`broker simulator: accept after ${acceptDelaySec} s, fills from ${fillDelaySec} s; Ctrl+C stops`);

  const stop = (signal: string) => {
    log(`${signal}: stopping (${printed} actions logged)`);
    engine.stop();
    live.stop();
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
