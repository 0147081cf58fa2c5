import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideAccess, desktopLandingRedirect, forbiddenFrom, forbiddenNotice, originFrom } from './access';
import { ADMIN_ONLY, GUEST, PUBLIC, SIGNED_IN, type RouteAccess } from './routes';

describe('route guard', () => {
  it('lets anyone open a public route', () => {
    for (const status of ['signedIn', 'signedOut'] as const) {
      assert.deepEqual(decideAccess(PUBLIC, status, null), { kind: 'allow' });
    }
  });

  it('sends a visitor without a user to sign in', () => {
    assert.deepEqual(decideAccess(SIGNED_IN, 'signedOut', null), { kind: 'signIn' });
    assert.deepEqual(decideAccess(ADMIN_ONLY, 'signedOut', null), { kind: 'signIn' });
  });

  it('redirects to / when the role is not in the required list', () => {
    assert.deepEqual(decideAccess(ADMIN_ONLY, 'signedIn', 'viewer'), { kind: 'forbidden', redirectTo: '/' });
    assert.deepEqual(decideAccess(ADMIN_ONLY, 'signedIn', 'broker'), { kind: 'forbidden', redirectTo: '/' });
    assert.deepEqual(decideAccess(ADMIN_ONLY, 'signedIn', 'admin'), { kind: 'allow' });
  });

  it('uses the fallback role user when the account has none', () => {
    const userOnly: RouteAccess = { kind: 'signedIn', roles: ['user'] };
    assert.deepEqual(decideAccess(userOnly, 'signedIn', null), { kind: 'allow' });
    assert.deepEqual(decideAccess(ADMIN_ONLY, 'signedIn', undefined), { kind: 'forbidden', redirectTo: '/' });
  });

  it('admits every role when the required list is empty', () => {
    const anyRole: RouteAccess = { kind: 'signedIn', roles: [] };
    for (const role of ['admin', 'broker', 'viewer', 'user'] as const) {
      assert.deepEqual(decideAccess(anyRole, 'signedIn', role), { kind: 'allow' });
      assert.deepEqual(decideAccess(SIGNED_IN, 'signedIn', role), { kind: 'allow' });
    }
  });

  it('sends a signed-in user away from the sign-in screen', () => {
    assert.deepEqual(decideAccess(GUEST, 'signedIn', 'viewer'), { kind: 'alreadySignedIn' });
    assert.deepEqual(decideAccess(GUEST, 'signedOut', null), { kind: 'allow' });
  });
});

describe('originFrom', () => {
  it('rebuilds the remembered location', () => {
    assert.equal(originFrom({ from: { pathname: '/account', search: '?tab=2', hash: '#x' } }), '/account?tab=2#x');
    assert.equal(originFrom({ from: { pathname: '/terms' } }), '/terms');
  });

  it('ignores missing, foreign or circular origins', () => {
    assert.equal(originFrom(null), null);
    assert.equal(originFrom({}), null);
    assert.equal(originFrom({ from: 'x' }), null);
    assert.equal(originFrom({ from: { pathname: 'https://evil.example/' } }), null);
    assert.equal(originFrom({ from: { pathname: '//evil.example/' } }), null);
    assert.equal(originFrom({ from: { pathname: '/login' } }), null);
  });
});

describe('desktop shell landing', () => {
  it('goes to sign-in when signed out', () => {
    assert.equal(desktopLandingRedirect('signedOut'), '/login');
  });
  it('goes to the blotter when signed in and the blotter exists', () => {
    assert.equal(
      desktopLandingRedirect('signedIn', (path) => path === '/orders'),
      '/orders',
    );
    assert.equal(
      desktopLandingRedirect('signedIn', () => false),
      null,
    );
  });

  it('names the role a guarded screen needs, for the notice on /', () => {
    assert.equal(forbiddenNotice('User Management', ['admin']), 'You need the admin role to open User Management.');
    assert.equal(forbiddenNotice('Broker Simulator', ['admin', 'broker']), 'You need the admin or broker role to open Broker Simulator.');
    assert.equal(
      forbiddenFrom({ forbidden: 'You need the admin role to open User Management.' }),
      'You need the admin role to open User Management.',
    );
    assert.equal(forbiddenFrom({ forbidden: 42 }), null);
    assert.equal(forbiddenFrom(null), null);
  });
});
