/**
 * Comparing two versions of a client's FIX specification (docs/adr/0011): the connector's Interactive FIX
 * Spec tab lists what changed between two documents handed out, stored as JSON with each version.
 */
import { dropCopyComparable } from './fix-specification-drop-copy';
import type { FixSpecCapability, FixSpecDocument } from './fix-specification';

/** The key of a message in the model: its type and, for reports, its ExecType. */
const messageKey = (m: { msgType: string; execType: string | null }) => (m.execType === null ? m.msgType : `${m.msgType}/${m.execType}`);

export type FixSpecChangeKind =
  | 'messageAdded'
  | 'messageRemoved'
  | 'fieldAdded'
  | 'fieldRemoved'
  | 'requiredChanged'
  | 'defaultChanged'
  | 'validValuesChanged'
  | 'scheduleChanged'
  | 'sessionChanged'
  | 'securityAdded'
  | 'securityRemoved'
  | 'limitChanged'
  | 'dropCopyChanged';

export interface FixSpecChange {
  kind: FixSpecChangeKind;
  /** Where: a message key ('D', '8/F'), 'session', 'schedule', 'dropCopy' or a symbol. */
  where: string;
  /** The field tag, the setting's name or the limit's name. */
  item: string;
  before: string | null;
  after: string | null;
}

const show = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function compareValues(
  out: FixSpecChange[],
  kind: FixSpecChangeKind,
  where: string,
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): void {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const before = show(a[k]);
    const after = show(b[k]);
    if (before !== after) out.push({ kind, where, item: k, before, after });
  }
}

/**
 * What changed from document `a` to document `b`: messages and fields added or removed, a
 * field's requirement, default or accepted values changed, the schedule and session settings, the
 * client's tradable securities and their limits.
 */
export function diffFixSpecDocuments(a: FixSpecDocument, b: FixSpecDocument): FixSpecChange[] {
  const out: FixSpecChange[] = [];
  const msgsA = new Map(a.messages.map((m) => [messageKey(m), m]));
  const msgsB = new Map(b.messages.map((m) => [messageKey(m), m]));
  for (const [k, m] of msgsA) if (!msgsB.has(k)) out.push({ kind: 'messageRemoved', where: k, item: m.name, before: m.name, after: null });
  for (const [k, mb] of msgsB) {
    const ma = msgsA.get(k);
    if (!ma) {
      out.push({ kind: 'messageAdded', where: k, item: mb.name, before: null, after: mb.name });
      continue;
    }
    const fa = new Map(ma.fields.map((f) => [f.tag, f]));
    const fb = new Map(mb.fields.map((f) => [f.tag, f]));
    for (const [tag, f] of fa)
      if (!fb.has(tag))
        out.push({ kind: 'fieldRemoved', where: k, item: `${tag} ${f.name}`, before: f.required ? 'required' : 'optional', after: null });
    for (const [tag, f] of fb) {
      const was = fa.get(tag);
      const item = `${tag} ${f.name}`;
      if (!was) {
        out.push({ kind: 'fieldAdded', where: k, item, before: null, after: f.required ? 'required' : 'optional' });
        continue;
      }
      if (was.required !== f.required)
        out.push({
          kind: 'requiredChanged',
          where: k,
          item,
          before: was.required ? 'required' : 'optional',
          after: f.required ? 'required' : 'optional',
        });
      if ((was.clientDefault ?? null) !== (f.clientDefault ?? null))
        out.push({ kind: 'defaultChanged', where: k, item, before: was.clientDefault, after: f.clientDefault });
      if (was.validValues !== f.validValues)
        out.push({ kind: 'validValuesChanged', where: k, item, before: was.validValues, after: f.validValues });
    }
  }
  compareValues(out, 'scheduleChanged', 'schedule', a.session.schedule, b.session.schedule);
  const sessionOf = (d: FixSpecDocument) => ({
    fixVersion: d.session.fixVersion,
    heartBtInt: d.session.heartBtInt,
    host: d.session.host,
    port: d.session.port,
    tlsPort: d.session.tlsPort,
    tlsRequired: d.session.tlsRequired,
    senderCompId: d.session.senderCompId,
    targetCompId: d.session.targetCompId,
    resetOnLogon: d.session.resetPolicy.resetOnLogon,
    resetFrequency: d.session.resetPolicy.resetFrequency,
    username: d.session.credentials.username,
    passwordRequired: d.session.credentials.passwordRequired,
    maxOrdersPerSecond: d.session.maxOrdersPerSecond,
  });
  compareValues(out, 'sessionChanged', 'session', sessionOf(a), sessionOf(b));
  compareValues(out, 'dropCopyChanged', 'dropCopy', dropCopyComparable(a.dropCopy), dropCopyComparable(b.dropCopy));
  const capKey = (c: FixSpecCapability) => `${c.symbol}${c.exchange ? `@${c.exchange}` : ''}`;
  const capsA = new Map((a.capabilities ?? []).map((c) => [capKey(c), c]));
  const capsB = new Map((b.capabilities ?? []).map((c) => [capKey(c), c]));
  for (const [k] of capsA) if (!capsB.has(k)) out.push({ kind: 'securityRemoved', where: k, item: k, before: 'tradable', after: null });
  for (const [k, cb] of capsB) {
    const ca = capsA.get(k);
    if (!ca) out.push({ kind: 'securityAdded', where: k, item: k, before: null, after: 'tradable' });
    else compareValues(out, 'limitChanged', k, { ...ca }, { ...cb });
  }
  return out;
}

/** One line per change, for lists and logs. */
export function describeFixSpecChange(c: FixSpecChange): string {
  switch (c.kind) {
    case 'messageAdded':
      return `${c.where}: message ${c.item} added`;
    case 'messageRemoved':
      return `${c.where}: message ${c.item} removed`;
    case 'fieldAdded':
      return `${c.where}: field ${c.item} added (${c.after})`;
    case 'fieldRemoved':
      return `${c.where}: field ${c.item} removed`;
    case 'securityAdded':
      return `${c.where}: security added`;
    case 'securityRemoved':
      return `${c.where}: security removed`;
    case 'dropCopyChanged':
      return `Drop copy: ${c.item === 'copiedTo' ? 'copied to' : 'copies of'} ${c.before ?? '(none)'} → ${c.after ?? '(none)'}`;
    default:
      return `${c.where}: ${c.item} ${c.before ?? '(none)'} → ${c.after ?? '(none)'}`;
  }
}
