// Generates the project's FIX 4.4 dictionary from the QuickFIX FIX44.xml:
//   src/dictionary/fix44.generated.json  (fields, enums, header, trailer, components, messages)
//   ../fix-codes/src/fix44.generated.ts  (@fixdesk/fix-codes: Tag constants and enum constants)
// Run: npm run gen:fix-dictionary [-- path/to/FIX44.xml]
// The XML is read only here, at development time; the runtime loads the generated files.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const xmlPath = process.argv[2] ? resolve(process.argv[2]) : resolve(repoRoot, '../shared/fix/FIX44.xml');
const outDir = resolve(here, '../src/dictionary');

const ACKNOWLEDGMENT = 'This product includes software developed by quickfixengine.org (http://www.quickfixengine.org/).';

// ---------------------------------------------------------------------------------------------
// A minimal XML reader: elements, attributes (single or double quoted), comments, processing
// instructions and the predefined/numeric entities. FIX44.xml needs nothing more; anything
// else (CDATA, DOCTYPE) is rejected loudly rather than misread.

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  line: number;
}

function decodeEntities(text: string, line: number): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);|&/g, (_match, ent: string | undefined) => {
    if (ent === undefined) throw new Error(`line ${line}: bare '&' in attribute value`);
    switch (ent) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(ent.startsWith('#x') ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10));
    }
  });
}

export function parseXml(text: string): XmlElement {
  let pos = 0;
  let line = 1;
  const root: XmlElement = { name: '#document', attrs: {}, children: [], line: 1 };
  const stack: XmlElement[] = [root];
  const advanceTo = (next: number): void => {
    for (let i = pos; i < next; i++) if (text.charCodeAt(i) === 10) line++;
    pos = next;
  };
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) {
      if (text.slice(pos).trim()) throw new Error(`line ${line}: text after the root element`);
      break;
    }
    advanceTo(lt);
    if (text.startsWith('<!--', pos)) {
      const end = text.indexOf('-->', pos + 4);
      if (end < 0) throw new Error(`line ${line}: unterminated comment`);
      advanceTo(end + 3);
      continue;
    }
    if (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos + 2);
      if (end < 0) throw new Error(`line ${line}: unterminated processing instruction`);
      advanceTo(end + 2);
      continue;
    }
    if (text.startsWith('<!', pos)) throw new Error(`line ${line}: DOCTYPE/CDATA not supported`);
    const gt = findTagEnd(text, pos);
    if (gt < 0) throw new Error(`line ${line}: unterminated tag`);
    const inner = text.slice(pos + 1, gt);
    const tagLine = line;
    advanceTo(gt + 1);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`line ${tagLine}: </${name}> does not close <${open?.name}>`);
      continue;
    }
    const selfClosing = inner.endsWith('/');
    const body = selfClosing ? inner.slice(0, -1) : inner;
    const nameMatch = /^([A-Za-z_][\w.-]*)/.exec(body);
    if (!nameMatch) throw new Error(`line ${tagLine}: bad tag <${inner}>`);
    const element: XmlElement = { name: nameMatch[1]!, attrs: {}, children: [], line: tagLine };
    const attrRe = /\s+([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/y;
    let end = nameMatch[0].length;
    attrRe.lastIndex = end;
    let m: RegExpExecArray | null;
    while ((m = attrRe.exec(body))) {
      element.attrs[m[1]!] = decodeEntities(m[2] ?? m[3] ?? '', tagLine);
      end = attrRe.lastIndex;
    }
    if (body.slice(end).trim()) throw new Error(`line ${tagLine}: cannot read attributes '${body.slice(end).trim()}'`);
    stack[stack.length - 1]!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`unclosed element <${stack[stack.length - 1]!.name}>`);
  return root;
}

function findTagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 39 || c === 34) quote = c;
    else if (c === 62) return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Dictionary model (the shape of fix44.generated.json; the db package seeds from it).

type Item =
  { field: number; required: boolean } | { component: string; required: boolean } | { group: number; required: boolean; items: Item[] };

interface FieldOut {
  tag: number;
  name: string;
  type: string;
  enums?: { value: string; description: string }[];
}

interface DictionaryOut {
  beginString: string;
  fields: FieldOut[];
  header: Item[];
  trailer: Item[];
  components: Record<string, Item[]>;
  messages: { name: string; msgType: string; category: 'app' | 'admin'; items: Item[] }[];
}

function child(el: XmlElement, name: string): XmlElement {
  const found = el.children.find((c) => c.name === name);
  if (!found) throw new Error(`<${el.name}> has no <${name}>`);
  return found;
}

function attr(el: XmlElement, name: string): string {
  const v = el.attrs[name];
  if (v === undefined) throw new Error(`line ${el.line}: <${el.name}> lacks attribute ${name}`);
  return v;
}

function required(el: XmlElement): boolean {
  const r = el.attrs.required ?? 'N';
  if (r !== 'Y' && r !== 'N') throw new Error(`line ${el.line}: required='${r}'`);
  return r === 'Y';
}

/**
 * Fields the QuickFIX C++ FIX44.xml marks optional inside a component although a message that carries
 * the component cannot do without them; the generated dictionary marks them required there. So far one:
 * Symbol (55) in Instrument. QuickFIX/J's FIX44.xml has it required (a NewOrderSingle without it is
 * answered with Reject 373=1, 371=55 "Required tag missing" by a QuickFIX/J acceptor), and an order,
 * cancel, replace or status request without an instrument cannot be acted on. The engine's rule is
 * QuickFIX's: a field is required only when it and every enclosing component are required, so Symbol is
 * enforced exactly where Instrument is (NewOrderSingle, OrderCancelRequest, ExecutionReport, a
 * NewOrderList entry, ...) and not where Instrument is optional (News, Email, ...).
 */
export const REQUIRED_IN_COMPONENT: Readonly<Record<string, readonly string[]>> = { Instrument: ['Symbol'] };

export function buildDictionary(
  xml: string,
  requiredInComponent: Readonly<Record<string, readonly string[]>> = REQUIRED_IN_COMPONENT,
): DictionaryOut {
  const doc = parseXml(xml);
  const fix = child(doc, 'fix');
  const beginString = `${attr(fix, 'type')}.${attr(fix, 'major')}.${attr(fix, 'minor')}`;

  const fields: FieldOut[] = [];
  const tagByName = new Map<string, number>();
  for (const f of child(fix, 'fields').children) {
    if (f.name !== 'field') throw new Error(`line ${f.line}: unexpected <${f.name}> in <fields>`);
    const tag = Number(attr(f, 'number'));
    if (!Number.isInteger(tag) || tag <= 0) throw new Error(`line ${f.line}: bad field number`);
    const name = attr(f, 'name');
    if (tagByName.has(name)) throw new Error(`line ${f.line}: field ${name} defined twice`);
    tagByName.set(name, tag);
    const out: FieldOut = { tag, name, type: attr(f, 'type') };
    const values = f.children.filter((c) => c.name === 'value');
    if (values.length) out.enums = values.map((v) => ({ value: attr(v, 'enum'), description: attr(v, 'description') }));
    fields.push(out);
  }
  fields.sort((a, b) => a.tag - b.tag);
  const typeByTag = new Map(fields.map((f) => [f.tag, f.type]));

  const componentNames = new Set(child(fix, 'components').children.map((c) => attr(c, 'name')));

  const readItems = (el: XmlElement): Item[] =>
    el.children.map((c): Item => {
      const name = attr(c, 'name');
      switch (c.name) {
        case 'field': {
          const tag = tagByName.get(name);
          if (tag === undefined) throw new Error(`line ${c.line}: unknown field ${name}`);
          return { field: tag, required: required(c) };
        }
        case 'component':
          if (!componentNames.has(name)) throw new Error(`line ${c.line}: unknown component ${name}`);
          return { component: name, required: required(c) };
        case 'group': {
          const tag = tagByName.get(name);
          if (tag === undefined) throw new Error(`line ${c.line}: unknown group field ${name}`);
          if (typeByTag.get(tag) !== 'NUMINGROUP') throw new Error(`line ${c.line}: group ${name} is not NUMINGROUP`);
          if (!c.children.length) throw new Error(`line ${c.line}: empty group ${name}`);
          return { group: tag, required: required(c), items: readItems(c) };
        }
        default:
          throw new Error(`line ${c.line}: unexpected <${c.name}>`);
      }
    });

  const components: Record<string, Item[]> = {};
  for (const c of child(fix, 'components').children) components[attr(c, 'name')] = readItems(c);
  for (const [component, names] of Object.entries(requiredInComponent)) {
    const items = components[component];
    if (!items) throw new Error(`REQUIRED_IN_COMPONENT: no component ${component}`);
    for (const name of names) {
      const item = items.find((i) => 'field' in i && i.field === tagByName.get(name));
      if (!item) throw new Error(`REQUIRED_IN_COMPONENT: ${name} is not a field of ${component}`);
      item.required = true;
    }
  }

  const messages = child(fix, 'messages').children.map((m) => {
    const category = attr(m, 'msgcat');
    if (category !== 'app' && category !== 'admin') throw new Error(`line ${m.line}: msgcat='${category}'`);
    return { name: attr(m, 'name'), msgType: attr(m, 'msgtype'), category: category as 'app' | 'admin', items: readItems(m) };
  });

  return { beginString, fields, header: readItems(child(fix, 'header')), trailer: readItems(child(fix, 'trailer')), components, messages };
}

// One field, component or message per line keeps the committed file reviewable in diffs.
export function formatDictionaryJson(d: DictionaryOut): string {
  const j = (v: unknown): string => JSON.stringify(v);
  const lines: string[] = [];
  lines.push('{');
  lines.push(`"beginString": ${j(d.beginString)},`);
  lines.push(`"fields": [\n${d.fields.map((f) => '  ' + j(f)).join(',\n')}\n],`);
  lines.push(`"header": ${j(d.header)},`);
  lines.push(`"trailer": ${j(d.trailer)},`);
  const comps = Object.entries(d.components).map(([k, v]) => `  ${j(k)}: ${j(v)}`);
  lines.push(`"components": {\n${comps.join(',\n')}\n},`);
  lines.push(`"messages": [\n${d.messages.map((m) => '  ' + j(m)).join(',\n')}\n]`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Typed constants.

const RESERVED = new Set([
  'Symbol',
  'Date',
  'Number',
  'String',
  'Boolean',
  'Object',
  'Array',
  'Error',
  'Map',
  'Set',
  'Promise',
  'Function',
  'Math',
  'JSON',
  'Tag',
  'Buffer',
]);

export function identifierFromDescription(description: string): string {
  const id = description
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return /^[0-9]/.test(id) ? `_${id}` : id || '_';
}

/**
 * The one module of FIX 4.4 codes (packages/fix-codes, `@fixdesk/fix-codes`): the tag numbers by field
 * name (`Tag.MsgType`) and every field's values by name (`ExecType.Trade`, `Side.Buy`), the names made
 * from the dictionary's descriptions. Dependency-free, so the engine (packages/fix) and the domain
 * (packages/domain) both import it and neither imports the other.
 */
export function generateCodesTs(d: DictionaryOut): string {
  const out: string[] = [];
  out.push('// Generated by packages/fix/scripts/gen-fix-dictionary.ts from the QuickFIX FIX44.xml. Do not edit.');
  out.push(`// ${ACKNOWLEDGMENT}`);
  out.push('// The one FIX 4.4 code table (tag numbers and field values): packages/fix and packages/domain import it.');
  out.push('');
  out.push('/** FIX 4.4 tag numbers by field name. */');
  out.push('export const Tag = {');
  for (const f of d.fields) out.push(`  ${f.name}: ${f.tag},`);
  out.push('} as const;');
  out.push('export type TagName = keyof typeof Tag;');
  out.push('');
  for (const f of d.fields) {
    if (!f.enums) continue;
    const constName = enumConstName(f.name);
    out.push(`/** ${f.name} (${f.tag}) values. */`);
    out.push(`export const ${constName} = {`);
    for (const [key, value] of enumEntries(f.enums)) out.push(`  ${key}: ${JSON.stringify(value)},`);
    out.push('} as const;');
    out.push(`export type ${constName} = (typeof ${constName})[keyof typeof ${constName}];`);
    out.push('');
  }
  return out.join('\n');
}

/** The exported name of a field's values: the field's name, unless that would shadow a global. */
export function enumConstName(fieldName: string): string {
  return RESERVED.has(fieldName) ? `${fieldName}Value` : fieldName;
}

/** A field's values as [name, value] pairs in dictionary order, each name unique within the field. */
export function enumEntries(enums: readonly { value: string; description: string }[]): [string, string][] {
  const used = new Set<string>();
  return enums.map((e) => {
    let key = identifierFromDescription(e.description);
    if (used.has(key)) key = `${key}_${identifierFromDescription(e.value).replace(/^_/, '')}`;
    while (used.has(key)) key += '_';
    used.add(key);
    return [key, e.value];
  });
}

/** Where the code module goes. */
export const codesPath = resolve(here, '../../fix-codes/src/fix44.generated.ts');

function main(): void {
  const xml = readFileSync(xmlPath, 'utf8');
  const dictionary = buildDictionary(xml);
  writeFileSync(resolve(outDir, 'fix44.generated.json'), formatDictionaryJson(dictionary));
  writeFileSync(codesPath, generateCodesTs(dictionary));
  console.log(
    `FIX dictionary ${dictionary.beginString}: ${dictionary.fields.length} fields, ${Object.keys(dictionary.components).length} components, ${dictionary.messages.length} messages`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
