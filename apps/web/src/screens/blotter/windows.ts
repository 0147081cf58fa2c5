/** Spec 000 §2: the axes board opens as a separate window, 1200x800, without toolbars, titled Open Axes. */
export function openAxesWindow(): void {
  const w = window.open('/axes', 'fixdesk-axes', 'popup=yes,width=1200,height=800,toolbar=no,menubar=no,location=no,status=no');
  w?.focus();
}

/** The desktop shell's pop-out: one window per order, reused when opened again. */
export function openOrderWindow(brokerOrderId: string): void {
  const w = window.open(
    `/order-detail/${encodeURIComponent(brokerOrderId)}`,
    `fixdesk-order-${brokerOrderId}`,
    'popup=yes,width=760,height=920',
  );
  w?.focus();
}

/** The order detail page in a new browser tab (outside the desktop shell). */
export function openOrderTab(brokerOrderId: string): void {
  window.open(`/order-detail/${encodeURIComponent(brokerOrderId)}`, '_blank', 'noopener');
}
