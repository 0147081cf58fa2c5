import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromeFor } from './chrome';

describe('page chrome', () => {
  it('shows the main bar and footer on ordinary pages', () => {
    assert.deepEqual(chromeFor('/', false), { topNav: 'main', footer: true });
    assert.deepEqual(chromeFor('/terms', false), { topNav: 'main', footer: true });
  });
  it('hides the footer on the work screens and everything on the axes board', () => {
    assert.deepEqual(chromeFor('/orders', false), { topNav: 'main', footer: false });
    assert.deepEqual(chromeFor('/fix-client/', false), { topNav: 'main', footer: false });
    assert.deepEqual(chromeFor('/axes', false), { topNav: 'none', footer: false });
    assert.deepEqual(chromeFor('/order-detail/BO00000042', false), { topNav: 'main', footer: false });
  });
  it('uses the compact bar and no footer in the desktop shell', () => {
    assert.deepEqual(chromeFor('/', true), { topNav: 'compact', footer: false });
    assert.deepEqual(chromeFor('/axes', true), { topNav: 'none', footer: false });
  });
});
