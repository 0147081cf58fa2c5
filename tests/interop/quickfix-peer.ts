// Runs the QuickFIX C++ peer (bench/quickfix/fixpeer.cpp) as a child process: feeds it a script on
// standard input and collects what it prints, so a test can assert on what QuickFIX sent and received.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export const SOH = '\x01';

export interface PeerOptions {
  readonly binary: string;
  readonly mode: 'initiator' | 'acceptor';
  readonly port: number;
  readonly senderCompID: string;
  readonly targetCompID: string;
  readonly storeDir: string;
  readonly dictionaryPath: string;
  readonly heartBtIntSec?: number;
  readonly echo?: boolean;
  /** QuickFIX's ResetOnLogon=Y: its Logon carries ResetSeqNumFlag=Y and both sides start at 1. */
  readonly resetOnLogon?: boolean;
  /** Default timeout of the script's wait commands. */
  readonly waitTimeoutMs?: number;
  /** The whole process is killed after this long. */
  readonly killAfterMs?: number;
}

/** A QuickFIX initiator run from a settings file as a client's FIX team would write it (see fixpeer --settings). */
export interface SettingsPeerOptions {
  readonly binary: string;
  /** The settings file; its relative paths (store, log, dictionary, certificates) are read from `cwd`. */
  readonly settingsFile: string;
  readonly cwd: string;
  /** The dictionary the peer builds the script's messages with. */
  readonly dictionaryPath: string;
  /** QuickFIX's SSL initiator (ClientCertificateFile, CertificationAuthoritiesFile... from the file). */
  readonly ssl?: boolean;
  readonly waitTimeoutMs?: number;
  readonly killAfterMs?: number;
}

export interface PeerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lines: readonly string[];
}

/** A message as the peer printed it: "RX 8=FIX.4.4|9=...|35=D|..." → its fields in wire order. */
export function fieldsOf(text: string): Array<[number, string]> {
  return text
    .split('|')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return [Number(pair.slice(0, eq)), pair.slice(eq + 1)] as [number, string];
    });
}

export function field(text: string, tag: number): string | undefined {
  return fieldsOf(text).find(([t]) => t === tag)?.[1];
}

/** Whether every tag=value of `want` is in the message. */
export function hasFields(text: string, want: Record<number, string>): boolean {
  const fields = fieldsOf(text);
  return Object.entries(want).every(([tag, value]) => fields.some(([t, v]) => t === Number(tag) && v === value));
}

/**
 * A QuickFIX initiator's settings file as a client's FIX team writes it for a several-node desk: one
 * acceptor address per port, in order (SocketConnectHost/Port, then …Host1/Port1), reconnecting every
 * second with its stored numbers (no reset on logon), messages checked against `dictionaryPath`.
 */
export function initiatorSettings(o: {
  senderCompID: string;
  dictionaryPath: string;
  ports: readonly number[];
  heartBtIntSec: number;
  extra?: readonly string[];
}): string {
  const hosts = o.ports.flatMap((port, i) => [`SocketConnectHost${i ? i : ''}=127.0.0.1`, `SocketConnectPort${i ? i : ''}=${port}`]);
  return [
    '[DEFAULT]',
    'ConnectionType=initiator',
    `HeartBtInt=${o.heartBtIntSec}`,
    'ReconnectInterval=1',
    'NonStopSession=Y',
    'StartTime=00:00:00',
    'EndTime=00:00:00',
    'FileStorePath=store',
    'UseDataDictionary=Y',
    `DataDictionary=${o.dictionaryPath}`,
    'ResetOnLogon=N',
    ...(o.extra ?? []),
    '[SESSION]',
    'BeginString=FIX.4.4',
    `SenderCompID=${o.senderCompID}`,
    'TargetCompID=FIXDESK',
    ...hosts,
    '',
  ].join('\n');
}

export class QuickfixPeer {
  readonly lines: string[] = [];
  /** When each line arrived (Date.now()), index for index with lines. */
  readonly times: number[] = [];
  readonly exited: Promise<PeerExit>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly listeners = new Set<() => void>();
  private stderr = '';
  private done = false;

  constructor(options: PeerOptions | SettingsPeerOptions) {
    let args: string[];
    if ('settingsFile' in options) {
      args = [
        '--mode',
        'initiator',
        '--settings',
        options.settingsFile,
        '--dict',
        options.dictionaryPath,
        '--timeout-ms',
        String(options.waitTimeoutMs ?? 5000),
      ];
      if (options.ssl) args.push('--ssl');
    } else {
      args = [
        '--mode',
        options.mode,
        '--port',
        String(options.port),
        '--sender',
        options.senderCompID,
        '--target',
        options.targetCompID,
        '--store',
        options.storeDir,
        '--dict',
        options.dictionaryPath,
        '--heartbeat',
        String(options.heartBtIntSec ?? 1),
        '--timeout-ms',
        String(options.waitTimeoutMs ?? 5000),
      ];
      if (options.echo) args.push('--echo');
      if (options.resetOnLogon) args.push('--reset-on-logon');
    }
    this.child = spawn(options.binary, args, { stdio: ['pipe', 'pipe', 'pipe'], ...('cwd' in options ? { cwd: options.cwd } : {}) });
    const killTimer = setTimeout(() => this.kill(), options.killAfterMs ?? 20_000);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.times.push(Date.now());
      for (const l of this.listeners) l();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        clearTimeout(killTimer);
        this.done = true;
        if (this.stderr) this.lines.push(`STDERR ${this.stderr.trim()}`);
        for (const l of this.listeners) l();
        resolve({ code, signal, lines: this.lines });
      });
    });
  }

  /** Sends script lines; `end` closes standard input (the peer stops and exits after the last command). */
  script(text: string, end = false): void {
    this.child.stdin.write(text.endsWith('\n') ? text : text + '\n');
    if (end) this.child.stdin.end();
  }

  /** Resolves with the first printed line (from `from` on) that satisfies the test, each line tested once; rejects on exit or timeout. */
  waitForLine(test: (line: string) => boolean, timeoutMs = 10_000, from = 0): Promise<string> {
    return new Promise((resolve, reject) => {
      // Each line is tested once, as it arrives (a rescan per line would be quadratic in a burst).
      let i = from;
      const check = () => {
        for (; i < this.lines.length; i++) {
          if (test(this.lines[i]!)) {
            finish();
            resolve(this.lines[i]!);
            return;
          }
        }
        if (this.done) {
          finish();
          reject(new Error(`QuickFIX peer exited before the expected line; output:\n${this.transcript()}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no expected line from the QuickFIX peer within ${timeoutMs} ms; output:\n${this.transcript()}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Lines of one kind ("RX", "TX", "APP", ...) with the prefix removed. */
  messages(kind: 'RX' | 'TX' | 'APP' | 'ADMIN'): string[] {
    const prefix = `${kind} `;
    return this.lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
  }

  /** The peer's next sequence numbers as last printed by its `seqnums` command. */
  lastSeqNums(): { sender: number; target: number } {
    const line = [...this.lines].reverse().find((l) => l.startsWith('SEQNUMS '));
    const m = line?.match(/sender=(\d+) target=(\d+)/);
    if (!m) throw new Error(`the QuickFIX peer printed no SEQNUMS line; output:\n${this.transcript()}`);
    return { sender: Number(m[1]), target: Number(m[2]) };
  }

  /** Waits for the peer to finish its script; fails (with its output) on a non-zero exit. */
  async finished(): Promise<void> {
    const exit = await this.exited;
    if (exit.code !== 0) throw new Error(`QuickFIX peer exited with ${exit.code ?? exit.signal}; output:\n${this.transcript()}`);
  }

  kill(): void {
    if (!this.done) this.child.kill('SIGKILL');
  }

  transcript(): string {
    return this.lines.slice(-80).join('\n');
  }
}
