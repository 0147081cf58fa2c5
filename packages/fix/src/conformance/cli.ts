import type { Acceptor } from '../engine/acceptor';
import type { LogFactory } from '../session/log';
import { startConformanceAcceptor } from './conformance-acceptor';

export interface ConformanceCliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const USAGE = 'usage: fix-conformance --port <port> [--host <address>] [--verbose]';

/** Parses `--port P [--host H] [--verbose]`; throws with the usage text on anything else. */
export function parseConformanceArgs(argv: readonly string[]): { port: number; host: string; verbose: boolean } {
  let port: number | undefined;
  let host = '0.0.0.0';
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port' || a === '-p') port = Number(argv[++i]);
    else if (a?.startsWith('--port=')) port = Number(a.slice(7));
    else if (a === '--host') host = argv[++i] ?? '';
    else if (a === '--verbose' || a === '-v') verbose = true;
    else throw new Error(`unknown argument "${a}"\n${USAGE}`);
  }
  if (port === undefined || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`a port between 0 and 65535 is required\n${USAGE}`);
  if (!host) throw new Error(`--host needs an address\n${USAGE}`);
  return { port, host, verbose };
}

/** Starts the conformance acceptor and prints its traffic; stops on SIGINT/SIGTERM. */
export async function runConformanceCli(
  argv: readonly string[],
  io: ConformanceCliIo = { out: console.log, err: console.error },
): Promise<Acceptor> {
  const { port, host, verbose } = parseConformanceArgs(argv);
  const show = (raw: string) => raw.replaceAll('\x01', '|');
  const logFactory: LogFactory = {
    create: (id) => {
      const name = id ? `${id.senderCompID}->${id.targetCompID}` : 'acceptor';
      return {
        onIncoming: (raw) => verbose && io.out(`${name} IN  ${show(raw)}`),
        onOutgoing: (raw) => verbose && io.out(`${name} OUT ${show(raw)}`),
        onEvent: (text) => io.out(`${name} ${text}`),
      };
    },
  };
  const acceptor = await startConformanceAcceptor({ port, host, logFactory });
  io.out(`FIX conformance acceptor (ISLD; clients TW, TW44; FIX.4.4) on ${host}:${acceptor.port}`);
  const stop = () => {
    void acceptor.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return acceptor;
}
