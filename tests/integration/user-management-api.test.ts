// User Management, Broker Information and the user's own account (spec 001 §5-§8): admin-only
// writes validated by the shared schemas (400 with field and reason), duplicates refused (409), the
// password policy, passwords never answered, the last active administrator kept, a user's sessions and
// sockets ended the moment they are deactivated, demoted or reset, a user who acted on an order
// deactivated instead of deleted, every change in the trail; broker logos sanitised; contacts' rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { AccountText, BrokerText, UserText, WS_CLOSE, type Broker, type BrokerContact, type UserSummary } from '@fixdesk/protocol';
import { WebSocket } from 'ws';
import type { IncomingNewOrder } from '../../apps/server/src/orders/intake';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server';

type Json = Record<string, unknown>;
interface Answer<T = Json> {
  status: number;
  text: string;
  body: T & { success?: boolean; message?: string; error?: string; field?: string };
}

const PW = 'Harbour-Lights-77';
let seq = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${++seq}`;

for (const kind of TEST_DB_KINDS) {
  describe(`user management, broker information and account on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    const sent: { fields: Map<number, string>; body: Array<[number, string]> }[] = [];
    const answers: string[] = [];

    const call = async <T = Json>(method: string, path: string, token: string | null, json?: unknown): Promise<Answer<T>> => {
      const r = await t.api(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
      const text = await r.text();
      answers.push(text);
      return { status: r.status, text, body: JSON.parse(text) as Answer<T>['body'] };
    };
    const signIn = async (username: string, password = PW, agent = 'TestAgent/1.0') => {
      const r = await t.api('/api/auth/login', { method: 'POST', json: { username, password }, headers: { 'user-agent': agent } });
      const body = (await r.json()) as { token?: string; message?: string };
      return { status: r.status, token: body.token ?? '' };
    };
    const brokerUser = (over: Json = {}) => ({
      username: uniq('trader'),
      email: `${uniq('t')}@broker.example`,
      password: PW,
      first_name: 'Jia',
      last_name: 'Tan',
      role: 'broker',
      user_type: 'broker',
      broker_branch_id: 1,
      trader_id: 'JTAN01',
      trader_full_name: 'Jia Tan',
      trader_party_id_source: 'PROPRIETARY',
      ...over,
    });
    const createUser = (json: unknown, token = admin) => call<{ user: UserSummary }>('POST', '/api/users', token, json);
    const openSocket = async (token: string) => {
      const ws = new WebSocket(t.url.replace('http', 'ws') + '/ws');
      const got: { type: string }[] = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d))));
      const closed = new Promise<[number, string, number]>((r) => ws.once('close', (c, why) => r([c, String(why), Date.now()])));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token }));
      for (let i = 0; i < 200 && !got.some((m) => m.type === 'authenticated'); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(
        got.some((m) => m.type === 'authenticated'),
        'the socket authenticated',
      );
      return { ws, closed };
    };

    before(async () => {
      const sender = {
        send: async (_compId: string, msg: { msgType: string; body: Array<[number, string]> }) => {
          sent.push({ fields: new Map(msg.body), body: msg.body });
          return sent.length;
        },
      };
      t = await startTestServer(kind, {}, { clientSender: sender });
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it('refuses every admin endpoint to non-administrators (403) and to strangers (401)', async () => {
      const admins: Array<[string, string, unknown?]> = [
        ['GET', '/api/users'],
        ['GET', '/api/users/changes'],
        ['POST', '/api/users', brokerUser()],
        ['PUT', '/api/users/2', { first_name: 'x' }],
        ['DELETE', '/api/users/3'],
        ['POST', '/api/broker-information', { company_name: 'Denied Ltd' }],
        ['PUT', '/api/broker-information/1', { notes: 'x' }],
        ['DELETE', '/api/broker-information/1'],
        ['POST', '/api/broker-information/1/contacts', { contact_name: 'X', email: 'x@x.example' }],
        ['PUT', '/api/broker-information/1/contacts/1', { contact_name: 'X', email: 'x@x.example' }],
        ['DELETE', '/api/broker-information/1/contacts/1'],
      ];
      for (const [method, path, json] of admins) {
        for (const token of [broker, viewer]) assert.equal((await call(method, path, token, json)).status, 403, `${method} ${path}`);
        assert.equal((await call(method, path, null, json)).status, 401, `${method} ${path} without a session`);
      }
      // A user can never raise their own role: the only way is the admin endpoint, refused above.
      const me = await call<{ data: { role: string } }>('GET', '/api/account', broker);
      assert.equal(me.body.data.role, 'broker');
      // Reads of broker information are for every signed-in user.
      assert.equal((await call('GET', '/api/broker-information/1/contacts', viewer)).status, 200);
    });

    it('validates user writes with the shared schema and the password policy: 400 with field and reason', async () => {
      const cases: Array<[Json, string, RegExp]> = [
        [brokerUser({ username: undefined }), 'username', /Username and email are required/],
        [brokerUser({ email: '' }), 'email', /Username and email are required/],
        [brokerUser({ password: undefined }), 'password', /Password is required for new users/],
        [brokerUser({ password: 'Short-pw-1' }), 'password', /at least 12 characters/],
        [brokerUser({ username: 'harbourlights77', password: 'HarbourLights77' }), 'password', /must not be the username/],
        [brokerUser({ password: 'qwertyuiop123!' }), 'password', /too common/],
        [brokerUser({ broker_branch_id: undefined }), 'broker_branch_id', new RegExp(UserText.brokerBranch)],
        [brokerUser({ trader_id: '' }), 'trader_id', new RegExp(UserText.traderId)],
        [brokerUser({ trader_full_name: null }), 'trader_full_name', new RegExp(UserText.traderFullName)],
        [brokerUser({ role: 'superuser' }), 'role', /admin, broker, viewer, user/],
        [brokerUser({ trader_party_id_source: 'BIC' }), 'trader_party_id_source', /PROPRIETARY, LICENSE, REGULATORY, EXCHANGE/],
        [brokerUser({ email: 'not-an-email' }), 'email', /e-mail address/],
        [brokerUser({ broker_branch_id: 99999 }), 'broker_branch_id', /existing broker/],
        [brokerUser({ is_admin: true }), 'is_admin', /unknown field/],
      ];
      for (const [body, field, reason] of cases) {
        const r = await createUser(body);
        assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.body.field, field, r.text);
        assert.match(r.body.message!, reason);
      }
      // A client-type user needs no broker fields.
      const client = await createUser({
        username: uniq('client'),
        email: `${uniq('c')}@client.example`,
        password: PW,
        user_type: 'client',
        role: 'viewer',
      });
      assert.equal(client.status, 200, client.text);
      assert.equal(client.body.user.role, 'viewer');
      // Editing: the username is locked; the broker rule holds on the merged record; a reset obeys the policy.
      const id = client.body.user.user_id;
      assert.equal((await call('PUT', `/api/users/${id}`, admin, { username: 'renamed' })).body.field, 'username');
      const toBroker = await call('PUT', `/api/users/${id}`, admin, { user_type: 'broker' });
      assert.equal(toBroker.status, 400);
      assert.equal(toBroker.body.field, 'broker_branch_id');
      assert.equal((await call('PUT', `/api/users/${id}`, admin, { password: 'password12345' })).body.field, 'password');
      // A blank password on edit means "unchanged".
      const blank = await call<{ user: UserSummary }>('PUT', `/api/users/${id}`, admin, { password: '', first_name: 'Ana' });
      assert.equal(blank.status, 200, blank.text);
      assert.equal((await signIn(client.body.user.username)).status, 200);
    });

    it('refuses a duplicate username or email (409), whatever the case', async () => {
      const first = await createUser(brokerUser());
      assert.equal(first.status, 200, first.text);
      const u = first.body.user;
      const sameName = await createUser(brokerUser({ username: u.username.toUpperCase() }));
      assert.equal(sameName.status, 409);
      assert.equal(sameName.body.field, 'username');
      const sameEmail = await createUser(brokerUser({ email: u.email!.toUpperCase() }));
      assert.equal(sameEmail.status, 409);
      assert.equal(sameEmail.body.field, 'email');
      const other = await createUser(brokerUser());
      const clash = await call('PUT', `/api/users/${other.body.user.user_id}`, admin, { email: u.email });
      assert.equal(clash.status, 409);
      assert.equal(clash.body.field, 'email');
    });

    it('keeps the last active administrator: no delete, deactivation or demotion', async () => {
      const adminId = (await call<{ data: { user_id: number } }>('GET', '/api/account', admin)).body.data.user_id;
      for (const change of [{ role: 'broker' }, { is_active: false }]) {
        const r = await call('PUT', `/api/users/${adminId}`, admin, change);
        assert.equal(r.status, 409, JSON.stringify(change));
        assert.equal(r.body.message, UserText.lastAdmin);
      }
      const del = await call('DELETE', `/api/users/${adminId}`, admin);
      assert.equal(del.status, 409);
      assert.equal(del.body.message, UserText.lastAdmin);
      // With a second administrator, the first may step down; the second then is the last.
      const second = await createUser({
        username: uniq('admin'),
        email: `${uniq('a')}@desk.example`,
        password: PW,
        role: 'admin',
        user_type: 'admin',
      });
      assert.equal(second.status, 200, second.text);
      const secondToken = (await signIn(second.body.user.username)).token;
      const down = await call('PUT', `/api/users/${adminId}`, secondToken, { role: 'viewer' });
      assert.equal(down.status, 200, down.text);
      assert.equal((await call('GET', '/api/users', admin)).status, 401, 'a demoted administrator signs in again');
      assert.equal((await call('PUT', `/api/users/${second.body.user.user_id}`, secondToken, { is_active: false })).status, 409);
      // Restore the seed administrator for the tests after this one.
      assert.equal((await call('PUT', `/api/users/${adminId}`, secondToken, { role: 'admin' })).status, 200);
      admin = await t.login('admin');
      assert.equal((await call('DELETE', `/api/users/${second.body.user.user_id}`, admin)).status, 200);
    });

    it('an administrator creates a broker user who signs in and fills; deactivation ends their sessions and sockets at once', async () => {
      const created = await createUser(brokerUser({ trader_id: 'JT-77', trader_full_name: 'Jia Tan', trader_party_id_source: 'LICENSE' }));
      assert.equal(created.status, 200, created.text);
      const user = created.body.user;
      assert.equal(user.last_login, null);
      const a = await signIn(user.username, PW, 'DeskBrowser/1 (blotter)');
      const b = await signIn(user.username, PW, 'DeskBrowser/2 (phone)');
      assert.equal(a.status, 200);
      const listed = (await call<{ users: UserSummary[] }>('GET', '/api/users', admin)).body.users.find((u) => u.user_id === user.user_id)!;
      assert.ok(listed.last_login, 'last_login kept');

      // The broker user accepts and fills an order: their actions are kept under their name, and their
      // reports name them as the executing trader (PartyRole 12) with their trader ID, source and name.
      const clOrdId = uniq('UM-');
      const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 2, 1));
      const order: IncomingNewOrder = {
        msgType: 'D',
        senderCompId: 'SGX_CLIENT_1',
        targetCompId: 'FIXDESK',
        clOrdId,
        side: '1',
        ordType: '2',
        orderQty: '10',
        price: '27000',
        symbol: 'C5TC',
        securityType: 'FUT',
        maturityMonthYear: `${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
        timeInForce: '0',
        exDestination: 'SGX',
        currency: 'USD',
        account: undefined,
        text: undefined,
        transactTime: new Date(),
        legs: [],
        parties: [{ partyId: 'CLIENT-TRADER', partyIdSource: 'D', partyRole: 11, legIndex: null }],
      };
      const { brokerOrderId } = await t.server.ctx.orders.receiveNewOrder(order);
      assert.equal((await call('POST', `/api/orders/${brokerOrderId}/accept`, a.token, {})).status, 200);
      const fill = await call('POST', `/api/orders/${brokerOrderId}/fill`, a.token, { fillQty: '10', fillPrice: '27000' });
      assert.equal(fill.status, 200, fill.text);
      const actions = await t.server.ctx.db.query<{ user_id: string; action_type: string }>(
        'SELECT a.user_id, a.action_type FROM order_actions a JOIN orders o ON o.id = a.order_id WHERE o.clordid = $1 ORDER BY a.id',
        [clOrdId],
      );
      assert.deepEqual(
        actions.rows.map((r) => [r.user_id, r.action_type]),
        [
          [user.username, 'ACCEPT'],
          [user.username, 'FILL'],
        ],
      );
      await t.server.ctx.outbox.idle();
      for (const execType of ['0', 'F']) {
        const report = sent.filter((m) => m.fields.get(11) === clOrdId && m.fields.get(150) === execType).at(-1);
        assert.ok(report, `report ${execType} sent`);
        const body = report.body;
        const at = body.findIndex(([tag, v]) => tag === 448 && v === 'JT-77');
        assert.ok(at > 0, `executing trader in ${JSON.stringify(body)}`);
        assert.deepEqual(body.slice(at, at + 6), [
          [448, 'JT-77'],
          [447, 'D'],
          [452, '12'],
          [802, '1'],
          [523, 'Jia Tan'],
          [803, '9'],
        ]);
        assert.equal(body.filter(([tag, v]) => tag === 452 && v === '12').length, 1, 'one executing trader');
        assert.equal(
          body.find(([tag]) => tag === 453)![1],
          String(body.filter(([tag]) => tag === 448).length),
          'NoPartyIDs counts the entries',
        );
      }
      // An administrator's action names no executing trader.
      const other = { ...order, clOrdId: uniq('UM-'), parties: order.parties };
      const second = await t.server.ctx.orders.receiveNewOrder(other);
      assert.equal((await call('POST', `/api/orders/${second.brokerOrderId}/accept`, admin, {})).status, 200);
      await t.server.ctx.outbox.idle();
      const byAdmin = sent.filter((m) => m.fields.get(11) === other.clOrdId && m.fields.get(150) === '0').at(-1)!;
      assert.equal(
        byAdmin.body.some(([tag, v]) => tag === 452 && v === '12'),
        false,
      );

      const { closed } = await openSocket(a.token);
      const started = Date.now();
      const off = await call<{ sessionsEnded: number }>('PUT', `/api/users/${user.user_id}`, admin, { is_active: false });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.sessionsEnded, 2);
      const [code, reason, at] = await closed;
      assert.equal(code, WS_CLOSE.authFailed);
      assert.match(reason, /changed by an administrator/);
      assert.ok(at - started < 2000, `the socket closed at once (${at - started} ms), not at the next heartbeat`);
      for (const token of [a.token, b.token]) assert.equal((await call('GET', '/api/account', token)).status, 401);
      assert.equal((await signIn(user.username)).status, 401, 'an inactive user cannot sign in');

      // They acted on an order: delete keeps the row, deactivated; the order trail still names them.
      const del = await call<{ deactivated: boolean }>('DELETE', `/api/users/${user.user_id}`, admin);
      assert.equal(del.status, 200);
      assert.equal(del.body.deactivated, true);
      assert.match(del.body.message!, /deactivated instead of deleted/);
      assert.ok((await call<{ users: UserSummary[] }>('GET', '/api/users', admin)).body.users.some((u) => u.user_id === user.user_id));
    });

    it('a role change or a password reset ends the sessions too; a user who never acted is deleted', async () => {
      const created = await createUser(brokerUser());
      const user = created.body.user;
      let s = await signIn(user.username);
      assert.equal((await call('PUT', `/api/users/${user.user_id}`, admin, { role: 'viewer' })).body.sessionsEnded, 1);
      assert.equal((await call('GET', '/api/account', s.token)).status, 401);
      s = await signIn(user.username);
      const reset = await call('PUT', `/api/users/${user.user_id}`, admin, { password: 'Brand-New-Harbour-9' });
      assert.equal(reset.body.sessionsEnded, 1);
      assert.equal((await call('GET', '/api/account', s.token)).status, 401);
      assert.equal((await signIn(user.username)).status, 401);
      assert.equal((await signIn(user.username, 'Brand-New-Harbour-9')).status, 200);
      // An edit of other fields leaves the sessions alone.
      s = await signIn(user.username, 'Brand-New-Harbour-9');
      assert.equal((await call('PUT', `/api/users/${user.user_id}`, admin, { first_name: 'Mei' })).body.sessionsEnded, 0);
      assert.equal((await call('GET', '/api/account', s.token)).status, 200);
      const del = await call('DELETE', `/api/users/${user.user_id}`, admin);
      assert.equal(del.status, 200);
      assert.equal(del.body.message, UserText.deleted(user.username));
      assert.equal((await call('GET', '/api/account', s.token)).status, 401);
      assert.equal(
        (await call<{ users: UserSummary[] }>('GET', '/api/users', admin)).body.users.some((u) => u.user_id === user.user_id),
        false,
      );
    });

    it('records every change: who changed whom, what, when; visible to administrators', async () => {
      const created = await createUser(brokerUser());
      const id = created.body.user.user_id;
      await call('PUT', `/api/users/${id}`, admin, { last_name: 'Lim', password: 'Another-Harbour-42' });
      const trail = await call<{ data: { action: string; changed_by: string; fields: string[]; entity_id: number; created_at: string }[] }>(
        'GET',
        `/api/users/changes?entity=users&id=${id}`,
        admin,
      );
      assert.equal(trail.status, 200);
      const [update, create] = trail.body.data;
      assert.equal(create!.action, 'CREATE');
      assert.equal(update!.action, 'UPDATE');
      assert.equal(update!.changed_by, 'admin');
      assert.deepEqual(update!.fields, ['last_name', 'password']);
      assert.ok(!Number.isNaN(Date.parse(update!.created_at)));
      assert.ok(!trail.text.includes('Another-Harbour-42'));
    });

    it("the user's own account: profile, sessions with sign-out, password change ending the other sessions", async () => {
      const created = await createUser(brokerUser({ role: 'viewer', user_type: 'client' }));
      const name = created.body.user.username;
      const here = await signIn(name, PW, 'Mozilla/5.0 (X11; Linux) Chrome/120');
      const phone = await signIn(name, PW, 'Mozilla/5.0 (iPhone) Safari/17');
      const third = await signIn(name, PW, 'curl/8');
      const profile = await call<{ data: { username: string } }>('GET', '/api/account', here.token);
      assert.equal(profile.body.data.username, name);
      const list = await call<{ data: { id: number; device: string; address: string; since: string; current: boolean }[] }>(
        'GET',
        '/api/account/sessions',
        here.token,
      );
      assert.equal(list.body.data.length, 3);
      assert.equal(list.body.data.filter((s) => s.current).length, 1);
      assert.ok(list.body.data.every((s) => s.address && s.since && s.device));
      const curl = list.body.data.find((s) => s.device === 'curl/8')!;
      assert.equal((await call('DELETE', `/api/account/sessions/${curl.id}`, here.token)).status, 200);
      assert.equal((await call('GET', '/api/account', third.token)).status, 401);
      // Someone else's session is not found for them.
      assert.equal((await call('DELETE', `/api/account/sessions/${curl.id}`, broker)).status, 404);

      const wrong = await call('POST', '/api/account/password', here.token, {
        current_password: 'nope-nope-nope',
        new_password: 'Evening-Tide-2031',
      });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.field, 'current_password');
      assert.equal(wrong.body.message, AccountText.wrongCurrent);
      const weak = await call('POST', '/api/account/password', here.token, { current_password: PW, new_password: 'password1234' });
      assert.equal(weak.status, 400);
      assert.equal(weak.body.field, 'new_password');
      const { closed } = await openSocket(phone.token);
      const ok = await call('POST', '/api/account/password', here.token, { current_password: PW, new_password: 'Evening-Tide-2031' });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.message, AccountText.passwordChanged);
      assert.equal((await closed)[0], WS_CLOSE.authFailed);
      assert.equal((await call('GET', '/api/account', phone.token)).status, 401, 'the other session ended');
      assert.equal((await call('GET', '/api/account', here.token)).status, 200, 'this session goes on');
      assert.equal((await signIn(name, 'Evening-Tide-2031')).status, 200);
    });

    it('broker information: create, parent rules, logo sanitised, delete refused while named', async () => {
      const hostile =
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="4" height="4" fill="#0a0"/><image href="https://evil.example/t.png"/></svg>';
      const parent = await call<{ data: Broker }>('POST', '/api/broker-information', admin, {
        company_name: uniq('Harbour Group '),
        branch_type: 'parent',
        lei: '5493001KJTIIGC8Y1R12',
        company_logo: hostile,
      });
      assert.equal(parent.status, 200, parent.text);
      assert.equal(parent.body.message, BrokerText.created);
      const logo = parent.body.data.company_logo!;
      assert.match(logo, /^<svg/);
      assert.match(logo, /<rect/);
      for (const bad of ['onload', '<script', 'alert', 'evil.example']) assert.ok(!logo.includes(bad), bad);
      assert.equal(parent.body.data.party_id_source, 'PROPRIETARY');
      assert.equal(parent.body.data.party_type, 1);
      const cases: Array<[Json, string, RegExp]> = [
        [{ company_name: '' }, 'company_name', /is required/],
        [{ company_name: 'X', company_logo: '<html><body>hi</body></html>' }, 'company_logo', new RegExp(BrokerText.svgOnly)],
        [{ company_name: 'X', company_logo: `<svg>${'a'.repeat(512_000)}</svg>` }, 'company_logo', new RegExp(BrokerText.logoTooLarge)],
        [{ company_name: 'X', party_type: 23 }, 'party_type', /1 to 22 or 24/],
        [{ company_name: 'X', party_id_source: 'DUNS' }, 'party_id_source', /BIC, LEI, PROPRIETARY, MIC, ISITC/],
        [{ company_name: 'X', lei: 'SHORT' }, 'lei', /20-character LEI/],
      ];
      for (const [body, field, reason] of cases) {
        const r = await call('POST', '/api/broker-information', admin, body);
        assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${r.text.slice(0, 200)}`);
        assert.equal(r.body.field, field);
        assert.match(r.body.message!, reason);
      }
      const dup = await call('POST', '/api/broker-information', admin, { company_name: parent.body.data.company_name.toUpperCase() });
      assert.equal(dup.status, 409);
      const branch = await call<{ data: Broker }>('POST', '/api/broker-information', admin, {
        company_name: uniq('Harbour SG '),
        parent_company_id: String(parent.body.data.id),
      });
      assert.equal(branch.status, 200, branch.text);
      assert.equal(branch.body.data.branch_type, 'branch');
      assert.equal(branch.body.data.parent_company_name, parent.body.data.company_name);
      const underBranch = await call('POST', '/api/broker-information', admin, {
        company_name: uniq('Nested '),
        parent_company_id: branch.body.data.id,
      });
      assert.equal(underBranch.status, 400);
      assert.equal(underBranch.body.field, 'parent_company_id');
      assert.match(underBranch.body.message!, /branch type is parent/);
      assert.equal(
        (
          await call('PUT', `/api/broker-information/${parent.body.data.id}`, admin, {
            parent_company_id: parent.body.data.id,
            branch_type: 'branch',
          })
        ).body.field,
        'parent_company_id',
      );
      // A parent named by a branch stays a parent and is not deleted.
      assert.equal((await call('PUT', `/api/broker-information/${parent.body.data.id}`, admin, { branch_type: 'subsidiary' })).status, 409);
      assert.equal((await call('DELETE', `/api/broker-information/${parent.body.data.id}`, admin)).status, 409);
      // Becoming a parent drops the parent; an empty parent is null.
      const up = await call<{ data: Broker }>('PUT', `/api/broker-information/${branch.body.data.id}`, admin, {
        branch_type: 'parent',
        company_logo: '',
      });
      assert.equal(up.body.data.parent_company_id, null);
      assert.equal(up.body.data.company_logo, null);
      assert.equal((await call('DELETE', `/api/broker-information/${branch.body.data.id}`, admin)).status, 200);
      assert.equal((await call('DELETE', `/api/broker-information/${parent.body.data.id}`, admin)).status, 200);
      // The seeded broker has connectors and users: refused, with the reason.
      const named = await call('DELETE', '/api/broker-information/1', admin);
      assert.equal(named.status, 409);
      assert.match(named.body.message!, /client connector/);
    });

    it('contacts: a name and an e-mail or primary phone; defaults; add, edit, delete', async () => {
      const b = (await call<{ data: Broker }>('POST', '/api/broker-information', admin, { company_name: uniq('Contacts Co ') })).body.data;
      const path = `/api/broker-information/${b.id}/contacts`;
      const noReach = await call('POST', path, admin, { contact_name: 'Mei Lim' });
      assert.equal(noReach.status, 400);
      assert.equal(noReach.body.field, 'email');
      assert.match(noReach.body.message!, /e-mail or a primary phone/);
      assert.equal((await call('POST', path, admin, { email: 'desk@x.example' })).body.field, 'contact_name');
      assert.equal((await call('POST', path, admin, { contact_name: 'X', phone_primary: '12' })).body.field, 'phone_primary');
      assert.equal(
        (await call('POST', path, admin, { contact_name: 'X', email: 'x@x.example', contact_type: 'sales' })).body.field,
        'contact_type',
      );
      assert.equal(
        (await call('POST', '/api/broker-information/999999/contacts', admin, { contact_name: 'X', email: 'x@x.example' })).status,
        404,
      );
      const added = await call<{ data: BrokerContact }>('POST', path, admin, {
        contact_name: '<b>Mei</b> Lim',
        phone_primary: '+65 6123 4567',
        contact_type: 'trading_desk',
      });
      assert.equal(added.status, 200, added.text);
      assert.equal(added.body.message, BrokerText.contactAdded);
      assert.equal(added.body.data.availability_hours, '09:00-17:00');
      assert.equal(added.body.data.timezone, 'Asia/Singapore');
      assert.equal(added.body.data.contact_name, '<b>Mei</b> Lim', 'stored as typed; shown as text');
      const c = added.body.data;
      const edited = await call<{ data: BrokerContact }>('PUT', `${path}/${c.id}`, admin, {
        ...c,
        email: 'mei@x.example',
        timezone: 'Asia/Hong_Kong',
      });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.data.timezone, 'Asia/Hong_Kong');
      const listed = await call<{ data: BrokerContact[] }>('GET', path, viewer);
      assert.deepEqual(
        listed.body.data.map((x) => x.email),
        ['mei@x.example'],
      );
      assert.equal((await call('DELETE', `${path}/${c.id}`, admin)).status, 200);
      assert.equal((await call('DELETE', `${path}/${c.id}`, admin)).status, 404);
      const trail = await call<{ data: { action: string }[] }>('GET', `/api/users/changes?entity=broker_contacts&id=${c.id}`, admin);
      assert.deepEqual(
        trail.body.data.map((x) => x.action),
        ['DELETE', 'UPDATE', 'CREATE'],
      );
    });

    it('saves the seeded viewer (Broker/Trader type without a branch) unchanged, resets its password and makes it active again', async () => {
      const listed = await call<{ users: UserSummary[] }>('GET', '/api/users', admin);
      const seeded = listed.body.users.find((u) => u.username === 'viewer')!;
      assert.equal(seeded.user_type, 'broker');
      assert.equal(seeded.broker_branch_id, null, 'the seed gave it no branch');
      // The row as read, sent back unchanged (what the edit form sends, the username aside).
      const { username: _u, ...row } = seeded;
      const unchanged = await call<{ user: UserSummary }>('PUT', `/api/users/${seeded.user_id}`, admin, row);
      assert.equal(unchanged.status, 200, unchanged.text);
      const off = await call('PUT', `/api/users/${seeded.user_id}`, admin, { ...row, is_active: false });
      assert.equal(off.status, 200, off.text);
      const on = await call<{ user: UserSummary }>('PUT', `/api/users/${seeded.user_id}`, admin, {
        ...row,
        is_active: true,
        password: 'Evening-Tide-2031',
      });
      assert.equal(on.status, 200, on.text);
      assert.equal(on.body.user.is_active, true);
      assert.equal((await signIn('viewer', 'Evening-Tide-2031')).status, 200, 'the reset password signs in');
      // The rule still holds for what a change takes away or newly asks for.
      const withTrader = await call('PUT', `/api/users/${seeded.user_id}`, admin, { trader_id: 'VW-1', trader_full_name: 'View Er' });
      assert.equal(withTrader.status, 200, withTrader.text);
      const cleared = await call('PUT', `/api/users/${seeded.user_id}`, admin, { trader_id: '' });
      assert.equal(cleared.status, 400, cleared.text);
      assert.equal(cleared.body.field, 'trader_id');
      const client = await createUser({
        username: uniq('client'),
        email: `${uniq('c')}@client.example`,
        password: PW,
        user_type: 'client',
        role: 'viewer',
      });
      const toBroker = await call('PUT', `/api/users/${client.body.user.user_id}`, admin, { user_type: 'broker' });
      assert.equal(toBroker.status, 400, toBroker.text);
      assert.equal(toBroker.body.field, 'broker_branch_id');
    });

    it('never answers a password or its hash', () => {
      const all = answers.join('\n');
      for (const secret of [PW, ADMIN_PASSWORD, 'Brand-New-Harbour-9', 'Evening-Tide-2031', 'password_hash', '$argon2']) {
        assert.ok(!all.includes(secret), `an answer held ${secret}`);
      }
    });
  });
}
