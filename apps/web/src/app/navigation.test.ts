import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMPACT_NAV, MAIN_NAV, visibleNav, type NavEntry } from './navigation';
import { ROUTES } from './routes';

function labels(entries: NavEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry.kind === 'link' ? [entry.label] : [`${entry.label}: ${entry.groups.flatMap((g) => g.items.map((i) => i.label)).join(', ')}`],
  );
}

describe('navigation', () => {
  it('links only to screens that exist', () => {
    const existing = new Set<string>(ROUTES.map((route) => route.path));
    for (const signedIn of [false, true]) {
      for (const entry of [...visibleNav(MAIN_NAV, { signedIn }), ...visibleNav(COMPACT_NAV, { signedIn })]) {
        const targets = entry.kind === 'link' ? [entry.to] : entry.groups.flatMap((g) => g.items.map((i) => i.to));
        for (const to of targets) assert.ok(existing.has(to), `${entry.label} links to missing screen ${to}`);
      }
    }
  });

  it('shows signed-in menus only to signed-in users', () => {
    const everything = () => true;
    assert.deepEqual(labels(visibleNav(MAIN_NAV, { signedIn: false, hasScreen: everything })), ['Home']);
    assert.deepEqual(labels(visibleNav(MAIN_NAV, { signedIn: true, hasScreen: everything })), [
      'Home',
      'Blotter',
      'Compliance: Order Actions, FIX Messages',
      'Insights',
      'Simulation: FIX Client Simulator, FIX Client, Broker Simulator',
      'Settings: Service Status, FIX Specification, Security Master, FIX Message Specs, FIX Client Defaults, Client Connectors, Client Sessions, Client Capabilities, User Management, Broker Information',
    ]);
  });

  it('drops empty groups and empty menus, keeping the group headings of the rest', () => {
    const some = new Set(['/', '/order-actions', '/service-status', '/config/user-management']);
    const visible = visibleNav(MAIN_NAV, { signedIn: true, hasScreen: (path) => some.has(path) });
    assert.deepEqual(labels(visible), ['Home', 'Compliance: Order Actions', 'Settings: Service Status, User Management']);
    const settings = visible.find((entry) => entry.label === 'Settings');
    assert.ok(settings?.kind === 'menu');
    assert.deepEqual(
      settings.groups.map((group) => group.label),
      ['Status', 'Organization'],
    );
  });

  it('gives the compact bar its spec entries', () => {
    assert.deepEqual(labels(visibleNav(COMPACT_NAV, { signedIn: true, hasScreen: () => true })), [
      'Blotter',
      'Simulator',
      'Compliance: Order Actions, FIX Messages',
      'Status',
      'Settings: Security Master, FIX Specification',
    ]);
  });
});
