// A fixed port for a server a test starts (a FIX acceptor, a node, the web server), which the test may
// stop and start again on that same port: a restart, a failover trial's killed node, a crash trial.
//
// The port is one below the system's ephemeral range, not one listen(0) hands out. A port from the
// ephemeral range is free only until the kernel gives it to an outgoing connection as its local port:
// while the server is down, any connection on the machine (a PostgreSQL client, a browser, another
// suite's HTTP call) can take it, and the server's restart then fails with EADDRINUSE. A CI run's
// failover trial failed so ("node-b exited with 1"), with another test file opening connections beside it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port picked from; below it sit the well-known and registered services people run. */
const LOWEST = 20_000;
/** Tries before giving up (a candidate someone listens on is skipped). */
const TRIES = 100;

/** The first port of the kernel's ephemeral range (Linux); 32768, Linux's default, elsewhere. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether nothing holds `port` on any address: the acceptors listen on 0.0.0.0. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports this process was given: a port is free until its server listens, so two calls before the
 * first server started could get the same one (two nodes' ports, then EADDRINUSE at the second).
 */
const given = new Set<number>();

/** A port nothing listens on now and no outgoing connection can be given (see above), never given twice here. */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  if (high - LOWEST < 1_000) throw new Error(`the ephemeral port range starts at ${high + 1}: no room below it for test servers`);
  for (let i = 0; i < TRIES; i++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1));
    if (given.has(port) || !(await canListen(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${high} after ${TRIES} tries`);
}
