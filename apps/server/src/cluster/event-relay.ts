import type { FastifyBaseLogger } from 'fastify';
import type { ServerEventBus, ServerEvents } from '../events';
import type { NodeBus } from './node-bus';

/** Configuration changes, as each node's parts follow them: the name of the event and its one argument. */
const EVENTS_CHANNEL = 'fixdesk_events';

/**
 * The events about the desk's configuration that every node must follow (docs/adr/0012): a connector
 * deactivated on one node logs its client out on the node its session is on; a changed security,
 * capability, default or spec renews the caches of every node; a user's ended sign-ins close that
 * user's sockets on every node at once. A node's own session events stay its own.
 */
const DESK_WIDE = [
  'connector-changed',
  'capabilities-changed',
  'client-defaults-changed',
  'security-changed',
  'message-specs-changed',
  'broker-changed',
  'sign-ins-ended',
] as const satisfies ReadonlyArray<keyof ServerEvents>;
type DeskWide = (typeof DESK_WIDE)[number];

const isDeskWide = (name: unknown): name is DeskWide => DESK_WIDE.includes(name as DeskWide);

/**
 * Sends this node's desk-wide events to the other nodes and emits theirs here, as if made here. After
 * a gap (changes may have been missed) every cache that follows them is renewed.
 */
export async function relayDeskEvents(bus: NodeBus, events: ServerEventBus, log: FastifyBaseLogger): Promise<void> {
  let relaying = false;
  const emitHere = (emit: () => void) => {
    relaying = true;
    try {
      emit();
    } finally {
      relaying = false;
    }
  };
  for (const name of DESK_WIDE) {
    events.on(name, (arg: string | number | null) => {
      if (!relaying && arg !== null) bus.publish(EVENTS_CHANNEL, { e: name, a: arg });
    });
  }
  await bus.subscribe(
    EVENTS_CHANNEL,
    (body) => {
      const name = body.e;
      const arg = body.a;
      if (!isDeskWide(name) || (typeof arg !== 'string' && typeof arg !== 'number')) return;
      emitHere(() => (events.emit as (n: DeskWide, a: string | number) => boolean)(name, arg));
    },
    () => {
      log.warn('desk-wide changes of other nodes may have been missed: renewing the caches');
      // Every order-intake cache (a security change renews them all), every client profile, every socket's sign-in.
      emitHere(() => {
        events.emit('security-changed', '');
        events.emit('message-specs-changed', '');
        events.emit('sign-ins-ended', null);
      });
    },
  );
}

/** A client's FIX session logged on or off at a node: `c`, the client's comp id. */
const SESSIONS_CHANNEL = 'fixdesk_sessions';

/**
 * Client connection changes as every node's browsers see them: the node a client logged on to or off
 * tells the others its comp id (after recording it), and they tell their browsers what the database
 * says now (connected or not), and their service status looks again.
 */
export async function relaySessionConnections(
  bus: NodeBus,
  events: ServerEventBus,
  connection: (compId: string) => Promise<{ connected: boolean }>,
  broadcast: (msg: { type: 'client_connection_status'; comp_id: string; is_connected: boolean; timestamp: string }) => void,
  log: FastifyBaseLogger,
): Promise<void> {
  let relaying = false;
  events.on('fix-session-changed', (compId) => {
    if (!relaying) bus.publish(SESSIONS_CHANNEL, { c: compId });
  });
  const tell = async (compId: string) => {
    const { connected } = await connection(compId);
    broadcast({ type: 'client_connection_status', comp_id: compId, is_connected: connected, timestamp: new Date().toISOString() });
    relaying = true;
    try {
      events.emit('fix-session-changed', compId);
    } finally {
      relaying = false;
    }
  };
  await bus.subscribe(
    SESSIONS_CHANNEL,
    (body) => {
      if (typeof body.c === 'string')
        void tell(body.c).catch((err: unknown) =>
          log.warn({ err, compId: body.c }, "could not tell the browsers of another node's client connection"),
        );
    },
    // Missed ones show at the next service status refresh and on the connectors' screen.
    () => {},
  );
}
