import { useEffect, useState, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout, usePanelRef } from 'react-resizable-panels';
import panes from '../../components/layout/SplitPanes.module.css';

/**
 * Spec 000 §2: left and right panels (left default 65 % wide, limited 20-80 %, left at least 300 px,
 * right at least 250 px); the left split top/bottom (top default 60 %, limited 20-80 %, top at least
 * 200 px, bottom at least 150 px). Percent and pixel limits both hold: the stricter one wins for the
 * current size. Layouts are remembered per user in local storage.
 */
const LAYOUT = {
  leftDefault: 65,
  leftMinPct: 20,
  leftMaxPct: 80,
  leftMinPx: 300,
  rightMinPx: 250,
  topDefault: 60,
  topMinPct: 20,
  topMaxPct: 80,
  topMinPx: 200,
  bottomMinPx: 150,
} as const;

/** The percentage bounds of the first panel for a group `size` px long. */
function firstPanelBounds(
  size: number,
  minPct: number,
  maxPct: number,
  firstMinPx: number,
  secondMinPx: number,
): { min: number; max: number } {
  if (!(size > 0)) return { min: minPct, max: maxPct };
  const min = Math.max(minPct, (firstMinPx / size) * 100);
  const max = Math.min(maxPct, 100 - (secondMinPx / size) * 100);
  // Too small for both pixel limits: keep the percentage band rather than an impossible one.
  return min <= max ? { min, max } : { min: minPct, max: maxPct };
}

function useSize(element: HTMLElement | null, axis: 'width' | 'height'): number {
  const [size, setSize] = useState(0);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize(Math.round(axis === 'width' ? entry.contentRect.width : entry.contentRect.height));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, axis]);
  return size;
}

const pct = (n: number) => `${n.toFixed(3)}%`;

/**
 * `infoCollapsed`: the Order Info panel is folded away and the grids take the full width (the spec's
 * limits apply whenever it is open). Collapsing keeps every pane mounted: the Orders grid and its
 * 50,000 rows are not rebuilt.
 */
export function BlotterLayout({
  userKey,
  orders,
  executions,
  info,
  infoCollapsed = false,
}: {
  userKey: string;
  orders: ReactNode;
  executions: ReactNode;
  info: ReactNode;
  infoCollapsed?: boolean;
}) {
  const [mainEl, setMainEl] = useState<HTMLDivElement | null>(null);
  const [leftEl, setLeftEl] = useState<HTMLDivElement | null>(null);
  const width = useSize(mainEl, 'width');
  const height = useSize(leftEl, 'height');
  const storage = typeof window === 'undefined' ? undefined : window.localStorage;
  const main = useDefaultLayout({ id: `fixdesk.blotter.${userKey}.main`, storage, onlySaveAfterUserInteractions: true });
  const left = useDefaultLayout({ id: `fixdesk.blotter.${userKey}.left`, storage, onlySaveAfterUserInteractions: true });
  const open = firstPanelBounds(width, LAYOUT.leftMinPct, LAYOUT.leftMaxPct, LAYOUT.leftMinPx, LAYOUT.rightMinPx);
  const horizontal = infoCollapsed ? { min: open.min, max: 100 } : open;
  const infoPanel = usePanelRef();
  useEffect(() => {
    // After the frame in which the left panel's new limit (100 % while folded) has been taken in.
    const frame = requestAnimationFrame(() => {
      const panel = infoPanel.current;
      if (!panel) return;
      if (infoCollapsed && !panel.isCollapsed()) panel.collapse();
      else if (!infoCollapsed && panel.isCollapsed()) panel.expand();
    });
    return () => cancelAnimationFrame(frame);
  }, [infoCollapsed, infoPanel, width]);
  const vertical = firstPanelBounds(height, LAYOUT.topMinPct, LAYOUT.topMaxPct, LAYOUT.topMinPx, LAYOUT.bottomMinPx);

  return (
    <Group
      orientation="horizontal"
      id="blotter-main"
      elementRef={setMainEl}
      defaultLayout={main.defaultLayout}
      onLayoutChanged={main.onLayoutChanged}
      style={{ flex: 1, minHeight: 0 }}
    >
      <Panel id="left" defaultSize={pct(LAYOUT.leftDefault)} minSize={pct(horizontal.min)} maxSize={pct(horizontal.max)}>
        <Group
          orientation="vertical"
          id="blotter-left"
          elementRef={setLeftEl}
          defaultLayout={left.defaultLayout}
          onLayoutChanged={left.onLayoutChanged}
          style={{ height: '100%' }}
        >
          <Panel id="orders" defaultSize={pct(LAYOUT.topDefault)} minSize={pct(vertical.min)} maxSize={pct(vertical.max)}>
            {orders}
          </Panel>
          <Separator className={panes.sepH} aria-label="Resize orders and executions" />
          <Panel id="executions">{executions}</Panel>
        </Group>
      </Panel>
      <Separator className={panes.sepV} aria-label="Resize orders and order info" disabled={infoCollapsed} />
      <Panel id="info" panelRef={infoPanel} collapsible collapsedSize="0%" minSize={pct(100 - open.max)}>
        {info}
      </Panel>
    </Group>
  );
}
