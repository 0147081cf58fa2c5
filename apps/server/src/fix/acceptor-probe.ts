import { connect as connectTcp } from 'node:net';

/**
 * The acceptor's heartbeat (service status): a TCP connection to its port that the acceptor itself
 * closes once we end ours, which takes its event loop, not only the kernel's backlog. The acceptor's
 * log events about these connections are told apart (isProbeEvent) so they stay out of the info log.
 */
export class AcceptorProbe {
  /** Our own probe connections: local ports, and their closes still to be logged (quietly). */
  private readonly probePorts = new Set<number>();
  private probeClosesPending = 0;
  private probesConnecting = 0;

  /** Whether an acceptor log event is about one of our probe connections. */
  isProbeEvent(text: string): boolean {
    const opened = /^connection from (.*):(\d+)$/.exec(text);
    // The acceptor may see the connection before our side hears it is connected (its port unknown yet).
    if (opened)
      return this.probePorts.has(Number(opened[2])) || (this.probesConnecting > 0 && /^(127\.|::1$|::ffff:127\.)/.test(opened[1]!));
    if (this.probeClosesPending > 0 && /^connection from \S+ closed before logon/.test(text)) {
      this.probeClosesPending--;
      return true;
    }
    return false;
  }

  /** Rejects when the acceptor at host:port is not listening, refuses or does not answer in `timeoutMs`. */
  probe(host: string, port: number, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.probesConnecting++;
      const socket = connectTcp({ host, port });
      let localPort: number | undefined;
      let answered = false;
      let connecting = true;
      const connected = () => {
        if (connecting) this.probesConnecting--;
        connecting = false;
      };
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      socket.once('connect', () => {
        connected();
        localPort = socket.localPort;
        if (localPort !== undefined) this.probePorts.add(localPort);
        this.probeClosesPending++;
        socket.end();
      });
      socket.once('end', () => {
        answered = true;
      });
      socket.once('error', (err) => {
        connected();
        if (localPort !== undefined) this.probePorts.delete(localPort);
        reject(err);
      });
      socket.once('close', () => {
        connected();
        if (localPort !== undefined) this.probePorts.delete(localPort);
        if (answered) resolve();
        else reject(new Error('the acceptor did not close the probe connection'));
      });
    });
  }
}
