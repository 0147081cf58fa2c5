import {
  connectionGuidelines,
  dropCopyFieldRows,
  dropCopyRules,
  dropCopySessionNotes,
  dropCopySummary,
  executionReportRows,
  FIX_SPEC_TABS,
  isDropCopySession,
  ORDER_FLOWS,
  SESSION_MESSAGES,
  sequenceDiagramSvg,
  sessionParameterRows,
  truncateValidValues,
  type FixSpecDocument,
  type FixSpecDropCopy,
  type FixSpecField,
  type FixSpecMessage,
} from '@fixdesk/domain';

/**
 * The client's FIX specification as static HTML (the content the password protects): the four numbered
 * tabs of the page (spec 001 §2) for one client, from the same document model. Every value is escaped;
 * the markup carries no script (the decryption page switches the tabs and copies the examples).
 */

export const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function table(headers: readonly string[], rows: readonly (readonly string[])[], opts: { raw?: boolean; cls?: string } = {}): string {
  const cell = (v: string) => (opts.raw ? v : esc(v));
  return `<table class="${opts.cls ?? ''}"><thead><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A field table: tag, name, type, required, valid values (truncated at 100, the full list on hover), default. */
function fieldTable(fields: readonly FixSpecField[], defaultLabel: string): string {
  const rows = fields.map((f) => [
    esc(f.tag),
    esc(f.name),
    esc(f.type),
    f.required ? '<span class="req">Required</span>' : 'Optional',
    f.validValues ? `<span title="${esc(f.validValues)}">${esc(truncateValidValues(f.validValues))}</span>` : '',
    f.clientDefault === null ? '' : `<code>${esc(f.clientDefault)}</code>`,
  ]);
  return table(['Tag', 'Field', 'Type', 'Required', 'Valid values', defaultLabel], rows, { raw: true, cls: 'fields' });
}

function messageSection(m: FixSpecMessage): string {
  const title = `${m.name} (35=${m.msgType}${m.execType === null ? '' : `, 150=${m.execType}`})`;
  const who = m.direction === 'in' ? 'You send' : 'We send';
  return `<h3>${esc(title)} <span class="dir">${who}</span></h3>${fieldTable(m.fields, m.direction === 'in' ? 'Your configured default' : 'Value we fill for you')}`;
}

/** The Session Information tab's Drop copy section: who, what a copy is, the fields that mark it. */
function dropCopySection(d: FixSpecDropCopy, compId: string): string {
  return [
    '<div class="drop-copy" data-section="drop-copy">',
    '<h3>Drop copy</h3>',
    `<p>${esc(dropCopySummary(d, compId))}</p>`,
    `<dl>${dropCopyRules(d, compId)
      .map((g) => `<dt>${esc(g.title)}</dt><dd>${esc(g.text)}</dd>`)
      .join('')}</dl>`,
    table(['Message', 'Tag', 'Field', 'Value'], dropCopyFieldRows(d, compId)),
    '</div>',
  ].join('');
}

export function renderFixSpecHtml(doc: FixSpecDocument): string {
  const c = doc.client;
  const s = doc.session;
  // Documents stored before drop copy (format 1) have no dropCopy: none.
  const dropCopy = doc.dropCopy ?? null;
  const copiesOnly = isDropCopySession(doc);
  const notes = dropCopySessionNotes(c.compId);
  const tabs = FIX_SPEC_TABS.map(
    (t, i) =>
      `<button type="button" class="tab${i === 0 ? ' active' : ''}" data-tab-target="${t.key}" data-colour="${t.colour}">${t.number}. ${esc(t.title)}</button>`,
  ).join('');

  const about = [
    '<h2>About FFA Futures</h2>',
    '<p>Forward Freight Agreements settle against the Baltic Exchange route assessments. The contracts below are offered on two exchanges:</p>',
    `<ul>${doc.exchanges.map((e) => `<li><b>${esc(e.mic)}</b>: ${esc(e.name)}</li>`).join('')}</ul>`,
    '<h3>Contracts and route symbols</h3>',
    table(
      ['Symbol (55)', 'Instrument', 'Route', 'Contract size', 'Price tick', 'Series months', 'Currency', 'Exchanges'],
      doc.contracts
        .filter((k) => k.active)
        .map((k) => [
          k.symbol,
          k.instrumentName,
          k.description,
          `${k.contractSize} ${k.contractUnit}`,
          k.priceTick,
          k.seriesMonths === null ? '' : String(k.seriesMonths),
          k.currency,
          k.exchanges.join(', '),
        ]),
    ),
    copiesOnly
      ? `<h3>What ${esc(c.clientName)} may trade</h3><p class="note">${esc(notes.about)}</p>`
      : doc.capabilities
        ? `<h3>What ${esc(c.clientName)} may trade</h3>${
            doc.capabilities.length === 0
              ? '<p>No capability is configured yet: every order is refused until the desk grants one.</p>'
              : table(
                  [
                    'Security',
                    'Exchange',
                    'Enabled',
                    'Buy',
                    'Sell',
                    'Short',
                    'Min qty',
                    'Max qty',
                    'Max long',
                    'Max short',
                    'Market (100)',
                  ],
                  doc.capabilities.map((k) => [
                    k.symbol,
                    k.exchange ?? 'Any',
                    yes(k.enabled),
                    yes(k.canBuy),
                    yes(k.canSell),
                    yes(k.canShort),
                    k.minOrderQty ?? '',
                    k.maxOrderQty ?? '',
                    k.maxPositionLong ?? '',
                    k.maxPositionShort ?? '',
                    k.marketIdentifier ?? '',
                  ]),
                )
          }`
        : '',
  ].join('');

  const incoming = doc.messages.filter((m) => m.direction === 'in');
  const orders = copiesOnly
    ? ['<h2>Order Generation</h2>', `<p class="note">${esc(notes.orderGeneration)}</p>`].join('')
    : [
        '<h2>Order Generation</h2>',
        `<p>Example messages built for ${esc(c.compId)} with its configured defaults (BodyLength and CheckSum computed; the session assigns MsgSeqNum and SendingTime). SOH is shown as |.</p>`,
        ...doc.examples.map(
          (e) =>
            `<h3>${esc(e.title)} <span class="dir">35=${esc(e.msgType)}</span></h3><div class="example"><pre>${esc(e.fix)}</pre><button type="button" class="copy" data-copy="${esc(e.fix)}">Copy</button></div>`,
        ),
        '<h3>Messages you send</h3>',
        '<p>A Cancel/Replace of a multileg order is sent as 35=G too: 35=AC (MultilegOrderCancelReplace) is not accepted and is answered with a BusinessMessageReject (35=j).</p>',
        ...incoming.map(messageSection),
      ].join('');

  const lifecycle = [
    '<h2>Trade Lifecycle</h2>',
    copiesOnly ? `<p class="note">${esc(notes.tradeLifecycle)}</p>` : '',
    ...ORDER_FLOWS.map(
      (f) =>
        `<h3>${esc(f.title)}</h3><p>${esc(f.description)}</p><div class="diagram">${sequenceDiagramSvg(f, { clientLabel: copiesOnly ? 'Client' : c.compId, deskLabel: s.targetCompId })}</div>`,
    ),
    '<h3>Execution report variants</h3>',
    table(
      ['Report', 'ExecType (150)', 'OrdStatus (39)', 'Sent today', 'Fields'],
      executionReportRows(doc).map((r) => [
        esc(r.variant.name) + `<div class="muted">${esc(r.variant.description)}</div>`,
        esc(r.variant.execType),
        esc(r.variant.ordStatus),
        r.sent ? 'Yes' : 'Reserved: handle it, not sent today',
        r.fields
          .map(
            (f) =>
              `${f.required ? '<b>' : ''}${esc(f.tag)} ${esc(f.name)}${f.required ? '</b>' : ''}${f.clientDefault === null ? '' : ` = <code>${esc(f.clientDefault)}</code>`}`,
          )
          .join(', '),
      ]),
      { raw: true },
    ),
    copiesOnly ? '<h3>Messages we send (copies)</h3>' : '<h3>Messages we send</h3>',
    ...doc.messages.filter((m) => m.direction === 'out').map(messageSection),
  ].join('');

  const session = [
    '<h2>Session Information</h2>',
    '<h3>Session parameters</h3>',
    table(['Parameter', 'Value'], sessionParameterRows(s)),
    dropCopy ? dropCopySection(dropCopy, c.compId) : '',
    '<h3>Session messages</h3>',
    table(
      ['MsgType (35)', 'Message', 'Direction', 'Usage'],
      SESSION_MESSAGES.map((m) => [
        m.msgType,
        m.name,
        m.direction === 'both' ? 'Both ways' : m.direction === 'in' ? 'You send' : 'We send',
        m.usage,
      ]),
    ),
    '<h3>Connection guidelines</h3>',
    `<dl>${connectionGuidelines(s)
      .map((g) => `<dt>${esc(g.title)}</dt><dd>${esc(g.text)}</dd>`)
      .join('')}</dl>`,
    '<h3>Standard header</h3>',
    fieldTable(s.header, 'Value'),
    '<h3>Standard trailer</h3>',
    fieldTable(s.trailer, 'Value'),
  ].join('');

  const sections: Record<string, string> = { aboutFFA: about, orderGeneration: orders, tradeLifecycle: lifecycle, sessionInfo: session };
  return [
    `<style>${DOCUMENT_CSS}</style>`,
    `<header class="doc-header" style="background:${FIX_SPEC_TABS[0].colour}"><div class="doc-title">${esc(FIX_SPEC_TABS[0].title)}</div>`,
    `<div class="doc-sub">FIX 4.4 specification for <b>${esc(c.clientName)}</b> (${esc(c.compId)} → ${esc(c.targetCompId)}) · contact ${esc(c.clientContact)} · version ${esc(doc.version ?? '-')} of ${esc(doc.generatedAt.slice(0, 10))}${
      doc.broker?.companyName ? ` · executing broker ${esc(doc.broker.companyName)}` : ''
    }</div></header>`,
    `<nav class="tabs">${tabs}</nav>`,
    ...FIX_SPEC_TABS.map(
      (t, i) =>
        `<section class="panel" data-tab="${t.key}" data-title="${esc(t.title)}"${i === 0 ? '' : ' hidden'}>${sections[t.key]}</section>`,
    ),
  ].join('\n');
}

const yes = (b: boolean) => (b ? 'Yes' : 'No');

const DOCUMENT_CSS = `
.doc-header{color:#fff;padding:18px 24px;border-radius:6px}
.doc-title{font-size:22px;font-weight:700}
.doc-sub{font-size:13px;opacity:.92;margin-top:4px}
.tabs{display:flex;gap:4px;margin:12px 0;border-bottom:2px solid #dee2e6;flex-wrap:wrap}
.tab{border:0;background:none;padding:8px 14px;font-size:14px;font-weight:600;color:#495057;cursor:pointer;border-bottom:3px solid transparent}
.tab.active{color:#212529;border-bottom-color:currentColor}
.panel h2{font-size:19px;margin:10px 0}
.panel h3{font-size:15px;margin:18px 0 6px}
.dir{font-size:11px;font-weight:600;color:#495057;background:#f1f3f5;border-radius:4px;padding:1px 6px;margin-left:6px}
table{border-collapse:collapse;width:100%;font-size:12.5px;margin:4px 0 10px}
th,td{border:1px solid #dee2e6;padding:4px 7px;text-align:left;vertical-align:top}
th{background:#f8f9fa}
.req{color:#c92a2a;font-weight:600}
.muted{color:#868e96;font-size:11.5px}
.note{background:#f1f3f5;border-left:3px solid #5f3dc4;padding:8px 10px;font-size:13.5px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.example{display:flex;gap:8px;align-items:flex-start}
.example pre{flex:1;background:#f8f9fa;border:1px solid #dee2e6;border-radius:4px;padding:8px;white-space:pre-wrap;word-break:break-all;margin:0}
.copy{padding:4px 10px;border:1px solid #adb5bd;border-radius:4px;background:#fff;cursor:pointer}
.diagram{max-width:760px;border:1px solid #e9ecef;border-radius:6px;padding:6px;margin-bottom:8px}
dt{font-weight:700;margin-top:8px}dd{margin:2px 0 0 0;font-size:13.5px}
`;
