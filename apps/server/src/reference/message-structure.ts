import type { DictionaryData, DictionaryItem } from '@fixdesk/db';

/**
 * What a FIX 4.4 message is made of, from the dictionary data: the component blocks it uses (for the
 * FIX Client Defaults screen's repeating groups and GET /api/component-blocks/by-message) and every tag
 * it may carry at any depth (to refuse a message specification that promises a field the message
 * cannot have).
 */
export interface MessageStructure {
  /** Component names in order of first appearance, nested ones after their parent; `required` when every enclosing level is. */
  components: { name: string; required: boolean }[];
  /** Header, body (with groups and components expanded) and trailer tags. */
  tags: Set<number>;
}

export function messageStructure(data: DictionaryData, msgType: string): MessageStructure | undefined {
  const message = data.messages.find((m) => m.msgType === msgType);
  if (!message) return undefined;
  const components: { name: string; required: boolean }[] = [];
  const seen = new Set<string>();
  const tags = new Set<number>();
  const walk = (items: readonly DictionaryItem[], required: boolean, collect: boolean, depth: number) => {
    if (depth > 16) return;
    for (const item of items) {
      if ('field' in item) tags.add(item.field);
      else if ('group' in item) {
        tags.add(item.group);
        walk(item.items, required && item.required, collect, depth + 1);
      } else {
        const inner = data.components[item.component];
        if (!inner) continue;
        if (collect && !seen.has(item.component)) {
          seen.add(item.component);
          components.push({ name: item.component, required: required && item.required });
        }
        walk(inner, required && item.required, collect, depth + 1);
      }
    }
  };
  walk(data.header, true, false, 0);
  walk(message.items, true, true, 0);
  walk(data.trailer, true, false, 0);
  return { components, tags };
}
