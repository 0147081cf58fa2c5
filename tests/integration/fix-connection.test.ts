// FixConnection over a real loopback socket: writes of one tick go out as one socket write, in order,
// and write() tells a sender to wait once the socket holds more than its high-water mark.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { FixConnection } from '../../packages/fix/src/transport/connection';

async function pair(): Promise<{ client: Socket; peer: Socket; close(): Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(client, 'connect');
  const [peer] = (await accepted) as [Socket];
  return {
    client,
    peer,
    close: async () => {
      client.destroy();
      peer.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function receive(peer: Socket, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  while (got < length) {
    const [chunk] = (await once(peer, 'data')) as [Buffer];
    chunks.push(chunk);
    got += chunk.length;
  }
  return Buffer.concat(chunks);
}

describe('FixConnection writes', () => {
  it('hands the writes of one tick to the socket as one write, in order', async () => {
    const p = await pair();
    try {
      const connection = new FixConnection(p.client);
      const calls: Buffer[] = [];
      const write = p.client.write.bind(p.client);
      p.client.write = ((chunk: Buffer) => {
        calls.push(chunk);
        return write(chunk);
      }) as typeof p.client.write;
      const messages = ['8=FIX.4.4|one|', '8=FIX.4.4|two|', '8=FIX.4.4|three|'].map((m) => Buffer.from(m, 'latin1'));
      const received = receive(
        p.peer,
        messages.reduce((n, m) => n + m.length, 0),
      );
      for (const m of messages) void connection.write(m);
      assert.equal(calls.length, 0, 'nothing written before the tick ends');
      assert.equal((await received).toString('latin1'), '8=FIX.4.4|one|8=FIX.4.4|two|8=FIX.4.4|three|');
      assert.equal(calls.length, 1);

      const lone = Buffer.from('8=FIX.4.4|four|', 'latin1');
      const second = receive(p.peer, lone.length);
      await connection.write(lone);
      assert.equal((await second).toString('latin1'), '8=FIX.4.4|four|');
      assert.equal(calls.length, 2);
      assert.equal(calls[1], lone, 'a lone message goes to the socket as it is');
    } finally {
      await p.close();
    }
  });

  it('write() says go on below the high-water mark and makes the sender wait above it', async () => {
    const p = await pair();
    try {
      const connection = new FixConnection(p.client);
      assert.equal(connection.write(Buffer.alloc(100, 0x41)), undefined, 'below the mark: write on');
      const big = connection.write(Buffer.alloc(p.client.writableHighWaterMark, 0x42));
      assert.ok(big, 'over the mark: wait');
      const received = receive(p.peer, 100 + p.client.writableHighWaterMark);
      await big;
      assert.equal((await received).length, 100 + p.client.writableHighWaterMark);
    } finally {
      await p.close();
    }
  });

  it('a slow consumer (a peer that stops reading) is disconnected once maxBufferedBytes are unsent', async () => {
    const p = await pair();
    try {
      p.peer.pause();
      const limit = 256 * 1024;
      const connection = new FixConnection(p.client, { maxBufferedBytes: limit });
      const closed = new Promise<string>((resolve) => connection.attach({ onData: () => {}, onClose: resolve }));
      const chunk = Buffer.alloc(16 * 1024, 0x43);
      let written = 0;
      // Writes on without waiting, as a sender ignoring backpressure would; the socket fills, then the limit trips.
      for (let i = 0; i < 1000 && connection.isOpen; i++) {
        connection.write(chunk);
        written += chunk.length;
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(connection.isOpen, false, `still open after ${written} bytes`);
      assert.match(await closed, new RegExp(`slow consumer: more than ${limit} bytes unsent`));
      assert.ok(written < 64 * 1024 * 1024, 'stopped long before an unbounded buffer would');
    } finally {
      await p.close();
    }
  });
});
