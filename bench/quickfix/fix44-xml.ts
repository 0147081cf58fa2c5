// Writes a QuickFIX data dictionary (FIX44.xml) from @fixdesk/fix's generated dictionary data.
// Debian's libquickfix packages ship no data dictionary; rebuilding it from our own data means the
// QuickFIX peer and our engine validate against the same FIX 4.4 definition (the one our JSON was
// generated from), so any disagreement between them is a codec or session difference, not a
// dictionary difference.
import fix44 from '../../packages/fix/src/dictionary/fix44.generated.json' with { type: 'json' };
import type { DictionaryData, DictionaryItem } from '../../packages/fix/src/index';

const data = fix44 as DictionaryData;

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

export function quickfixDictionaryXml(dictionary: DictionaryData = data): string {
  const nameOf = new Map(dictionary.fields.map((f) => [f.tag, f.name]));
  const fieldName = (tag: number): string => {
    const name = nameOf.get(tag);
    if (name === undefined) throw new Error(`dictionary references undefined field ${tag}`);
    return name;
  };
  const yn = (required: boolean) => (required ? 'Y' : 'N');
  const items = (list: readonly DictionaryItem[], indent: string): string[] =>
    list.flatMap((item): string[] => {
      if ('field' in item) return [`${indent}<field name="${fieldName(item.field)}" required="${yn(item.required)}"/>`];
      if ('component' in item) return [`${indent}<component name="${escapeXml(item.component)}" required="${yn(item.required)}"/>`];
      return [
        `${indent}<group name="${fieldName(item.group)}" required="${yn(item.required)}">`,
        ...items(item.items, indent + '  '),
        `${indent}</group>`,
      ];
    });

  const [major, minor] = dictionary.beginString.replace('FIX.', '').split('.');
  const out: string[] = [`<fix major="${major}" minor="${minor}" servicepack="0" type="FIX">`];
  out.push(' <header>', ...items(dictionary.header, '  '), ' </header>');
  out.push(' <messages>');
  for (const m of dictionary.messages) {
    out.push(
      `  <message name="${escapeXml(m.name)}" msgtype="${escapeXml(m.msgType)}" msgcat="${m.category}">`,
      ...items(m.items, '   '),
      '  </message>',
    );
  }
  out.push(' </messages>');
  out.push(' <trailer>', ...items(dictionary.trailer, '  '), ' </trailer>');
  out.push(' <components>');
  for (const [name, list] of Object.entries(dictionary.components)) {
    out.push(`  <component name="${escapeXml(name)}">`, ...items(list, '   '), '  </component>');
  }
  out.push(' </components>');
  out.push(' <fields>');
  for (const f of dictionary.fields) {
    if (!f.enums?.length) {
      out.push(`  <field number="${f.tag}" name="${f.name}" type="${f.type}"/>`);
      continue;
    }
    out.push(`  <field number="${f.tag}" name="${f.name}" type="${f.type}">`);
    for (const e of f.enums) out.push(`   <value enum="${escapeXml(e.value)}" description="${escapeXml(e.description)}"/>`);
    out.push('  </field>');
  }
  out.push(' </fields>', '</fix>', '');
  return out.join('\n');
}
