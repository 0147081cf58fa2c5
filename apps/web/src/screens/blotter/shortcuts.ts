/**
 * The blotter's keyboard shortcuts on the selected row. Each one goes through the Order Info panel's
 * own control (found by its data-shortcut), so a shortcut can do nothing a click could not: the same
 * confirmation, the same role and connection checks, the same disabled states.
 */
export const BLOTTER_SHORTCUTS = [
  { keys: ['↑', '↓'], text: 'Move through the orders (the order is selected)' },
  { keys: ['A'], text: 'Accept the pending order' },
  { keys: ['R'], text: 'Reject: type the reason, Enter to confirm' },
  { keys: ['F'], text: 'Fill: to the fill form (Enter submits it)' },
  { keys: ['D'], text: 'Done for Day (with its confirmation)' },
  { keys: ['Enter'], text: 'On a row: to the order’s form; in a form: submit it' },
  { keys: ['Esc'], text: 'From the Order Info panel back to the row' },
  { keys: ['?'], text: 'This list' },
] as const;

export type ShortcutTarget = 'accept' | 'reject-reason' | 'fill' | 'done-for-day';

export const SHORTCUT_TARGETS: Readonly<Record<string, ShortcutTarget>> = { a: 'accept', r: 'reject-reason', f: 'fill', d: 'done-for-day' };

/**
 * Runs a shortcut in the Order Info panel, only when the panel shows that very order (a key pressed
 * right after an arrow key must not act on the order selected before). Returns whether it was used.
 */
export function runShortcut(panel: Element | null, brokerOrderId: string, target: ShortcutTarget, fillField: HTMLElement | null): boolean {
  if (!panel || !brokerOrderId || panel.getAttribute('data-order') !== brokerOrderId) return false;
  if (target === 'fill') {
    if (!fillField || !panel.contains(fillField)) return false;
    fillField.focus();
    return true;
  }
  const control = panel.querySelector<HTMLElement>(`[data-shortcut="${target}"]`);
  if (!control) return false;
  if (target === 'reject-reason') {
    control.focus();
    return true;
  }
  if ((control as HTMLButtonElement).disabled) return false;
  control.click();
  return true;
}
