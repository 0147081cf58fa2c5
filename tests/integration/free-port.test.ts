// The test servers' fixed ports (tests/support/free-port.ts) sit below the kernel's ephemeral range, so
// no outgoing connection can be given one while its server is down between a kill and a restart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { freePort } from '../support/free-port';

const linux = process.platform === 'linux';

test('gives ports below the ephemeral range that a server can listen on', { skip: !linux && 'reads the Linux port range' }, async () => {
  const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    assert.ok(port >= 20_000 && port < low, `port ${port} is not below the ephemeral range (from ${low})`);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '0.0.0.0', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test(
  'never gives a port twice in one process, though none was listened on yet',
  { skip: !linux && 'reads the Linux port range' },
  async () => {
    // A file starting two nodes asks for four ports before the first listens. With 1,000 picks over the
    // range below the ephemeral ports, a pick made without memory repeats one many times over.
    const ports = [];
    for (let i = 0; i < 1_000; i++) ports.push(await freePort());
    assert.equal(new Set(ports).size, ports.length);
  },
);
