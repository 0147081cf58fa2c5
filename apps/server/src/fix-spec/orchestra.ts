import type { DictionaryData } from '@fixdesk/db';
import { isDropCopySession, type FixSpecDocument, type FixSpecMessage } from '@fixdesk/domain';
import { esc } from './render-html';

/**
 * The client's specification as a FIX Orchestra repository: the messages it sends and
 * receives with their fields' presence, the client's configured values as assignments, and code sets
 * limited to the codes we accept (client messages) or send (ours), so a client's engine can be
 * configured from it. Field types and message names come from the FIX 4.4 dictionary the engine uses.
 */
export const ORCHESTRA_NAMESPACE = 'http://fixprotocol.io/2020/orchestra/repository';

/** A Score DSL string literal (Orchestra's expression language). */
const scoreString = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** 'code=Label, code=Label' back into codes (labels may contain commas only after the first '='). */
function parseCodes(text: string): { value: string; name: string }[] {
  if (!text) return [];
  return text
    .split(/, (?=[^,=\s]+=)/)
    .map((pair) => {
      const i = pair.indexOf('=');
      return i > 0 ? { value: pair.slice(0, i), name: pair.slice(i + 1) } : null;
    })
    .filter((c): c is { value: string; name: string } => c !== null);
}

/** An Orchestra name: letters and digits, starting with a letter. */
const symbolicName = (label: string, fallback: string) => {
  const words = label
    .replace(/\(.*?\)/g, ' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `${fallback}${name}`;
};

export function renderOrchestraXml(doc: FixSpecDocument, dictionary: DictionaryData): string {
  const typeOf = (tag: number) => dictionary.fields.find((f) => f.tag === tag)?.type ?? 'STRING';
  const nameOf = (tag: number, fallback: string) => dictionary.fields.find((f) => f.tag === tag)?.name ?? fallback;

  // A code set per field whose accepted or sent values are listed; one set even when several messages use it.
  const codeSets = new Map<number, { value: string; name: string }[]>();
  const fields = new Map<number, { name: string; type: string }>();
  const messages: FixSpecMessage[] = doc.messages;
  // A drop copy session's messages are the copies the desk sends it (docs/adr/0017).
  const copiesOnly = isDropCopySession(doc);
  for (const m of messages) {
    for (const f of m.fields) {
      fields.set(f.tag, { name: nameOf(f.tag, f.name), type: typeOf(f.tag) });
      const codes = parseCodes(f.validValues);
      if (codes.length === 0) continue;
      const known = codeSets.get(f.tag) ?? [];
      for (const c of codes) if (!known.some((k) => k.value === c.value)) known.push(c);
      codeSets.set(f.tag, known);
    }
  }
  for (const f of [...doc.session.header, ...doc.session.trailer]) fields.set(f.tag, { name: nameOf(f.tag, f.name), type: typeOf(f.tag) });

  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<fixr:repository xmlns:fixr="${ORCHESTRA_NAMESPACE}" xmlns:dcterms="http://purl.org/dc/terms/" name="${esc(`FixDesk ${doc.client.compId}`)}" version="FIX.4.4">`,
    '  <fixr:metadata>',
    `    <dcterms:title>${esc(`FIX 4.4 rules of engagement for ${doc.client.clientName} (${doc.client.compId})`)}</dcterms:title>`,
    `    <dcterms:creator>${esc(doc.broker?.companyName ?? 'FixDesk')}</dcterms:creator>`,
    `    <dcterms:date>${esc(doc.generatedAt)}</dcterms:date>`,
    `    <dcterms:identifier>${esc(`${doc.client.compId}${doc.version === null ? '' : `-v${doc.version}`}`)}</dcterms:identifier>`,
    '  </fixr:metadata>',
    '  <fixr:codeSets>',
  ];
  for (const [tag, codes] of [...codeSets].sort((a, b) => a[0] - b[0])) {
    const field = fields.get(tag)!;
    lines.push(
      `    <fixr:codeSet name="${esc(`${field.name}CodeSet`)}" id="${tag}" type="${esc(field.type === 'MULTIPLEVALUESTRING' ? 'MultipleCharValue' : field.type === 'CHAR' ? 'char' : field.type === 'INT' ? 'int' : 'String')}">`,
    );
    codes.forEach((c, i) =>
      lines.push(
        `      <fixr:code name="${esc(symbolicName(c.name, field.name))}" id="${tag * 1000 + i + 1}" value="${esc(c.value)}"><fixr:annotation><fixr:documentation>${esc(c.name)}</fixr:documentation></fixr:annotation></fixr:code>`,
      ),
    );
    lines.push('    </fixr:codeSet>');
  }
  lines.push('  </fixr:codeSets>', '  <fixr:fields>');
  for (const [tag, f] of [...fields].sort((a, b) => a[0] - b[0])) {
    lines.push(`    <fixr:field id="${tag}" name="${esc(f.name)}" type="${esc(codeSets.has(tag) ? `${f.name}CodeSet` : f.type)}"/>`);
  }
  lines.push('  </fixr:fields>', '  <fixr:messages>');
  messages.forEach((m, index) => {
    // ExecutionReports differ per ExecType: one scenario each, named after it.
    const scenario = m.execType === null ? 'base' : `ExecType${m.execType}`;
    lines.push(`    <fixr:message name="${esc(m.name)}" msgType="${esc(m.msgType)}" scenario="${esc(scenario)}" id="${index + 1}">`);
    lines.push(
      `      <fixr:annotation><fixr:documentation>${m.direction === 'in' ? 'Sent by the client' : copiesOnly ? "Sent by the desk: a drop copy of a client's message" : 'Sent by the desk'}</fixr:documentation></fixr:annotation>`,
    );
    lines.push('      <fixr:structure>');
    for (const f of m.fields) {
      const presence = f.required ? 'required' : 'optional';
      if (f.clientDefault === null) {
        lines.push(`        <fixr:fieldRef id="${f.tag}" presence="${presence}"/>`);
      } else {
        lines.push(`        <fixr:fieldRef id="${f.tag}" presence="${presence}">`);
        lines.push(`          <fixr:assign>${esc(scoreString(f.clientDefault))}</fixr:assign>`);
        lines.push('        </fixr:fieldRef>');
      }
    }
    lines.push('      </fixr:structure>', '    </fixr:message>');
  });
  lines.push('  </fixr:messages>', '</fixr:repository>', '');
  return lines.join('\n');
}
