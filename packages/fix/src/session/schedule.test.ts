import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isResetDue, isWithinSchedule, lastResetBoundary, parseTradingDays, zonedToInstant } from './schedule';

const sgp = { timeZone: 'Asia/Singapore', tradingDays: parseTradingDays('M,T,W,T,F'), startTime: '09:00:00', endTime: '17:00:00' };

describe('session schedule', () => {
  it('reads the connector form letters by their place in the week', () => {
    assert.deepEqual([...parseTradingDays('M,T,W,T,F')].sort(), [1, 2, 3, 4, 5]);
    assert.deepEqual([...parseTradingDays('SUN,MON')].sort(), [0, 1]);
    assert.deepEqual([...parseTradingDays('F,S,S')].sort(), [0, 5, 6]);
    assert.throws(() => parseTradingDays('X'));
  });

  it('is open on a weekday between start and end in the connector zone', () => {
    // 2024-01-02 is a Tuesday. 09:30 SGT = 01:30Z.
    assert.equal(isWithinSchedule(sgp, Date.UTC(2024, 0, 2, 1, 30)), true);
    assert.equal(isWithinSchedule(sgp, Date.UTC(2024, 0, 2, 0, 59)), false); // 08:59 SGT
    assert.equal(isWithinSchedule(sgp, Date.UTC(2024, 0, 2, 9, 0)), false); // 17:00 SGT, end is exclusive
    assert.equal(isWithinSchedule(sgp, Date.UTC(2024, 0, 6, 3, 0)), false); // Saturday
  });

  it('handles windows over midnight', () => {
    const night = { timeZone: 'UTC', tradingDays: new Set([1]), startTime: '22:00', endTime: '06:00' };
    assert.equal(isWithinSchedule(night, Date.UTC(2024, 0, 1, 23, 0)), true); // Monday 23:00
    assert.equal(isWithinSchedule(night, Date.UTC(2024, 0, 2, 5, 0)), true); // Tuesday 05:00, window began Monday
    assert.equal(isWithinSchedule(night, Date.UTC(2024, 0, 2, 23, 0)), false); // Tuesday is not a start day
  });

  it('converts local wall time to an instant across DST', () => {
    assert.equal(zonedToInstant(2024, 7, 1, 9 * 3600, 'Europe/London'), Date.UTC(2024, 6, 1, 8, 0));
    assert.equal(zonedToInstant(2024, 1, 1, 9 * 3600, 'Europe/London'), Date.UTC(2024, 0, 1, 9, 0));
    assert.equal(zonedToInstant(2024, 1, 1, 9 * 3600, 'America/New_York'), Date.UTC(2024, 0, 1, 14, 0));
  });

  it('decides scheduled resets from the store creation time in the connector zone', () => {
    const tz = 'Asia/Singapore';
    const created = Date.UTC(2024, 0, 2, 1, 0); // Tue 09:00 SGT
    assert.equal(isResetDue('DAILY', created, Date.UTC(2024, 0, 2, 8, 0), tz), false); // same local day
    assert.equal(isResetDue('DAILY', created, Date.UTC(2024, 0, 2, 16, 30), tz), true); // Wed 00:30 SGT
    assert.equal(isResetDue('DAILY', created, Date.UTC(2024, 0, 2, 15, 30), tz), false); // Tue 23:30 SGT
    assert.equal(isResetDue('WEEKLY', created, Date.UTC(2024, 0, 5, 1, 0), tz), false); // Friday same week
    assert.equal(isResetDue('WEEKLY', created, Date.UTC(2024, 0, 8, 1, 0), tz), true); // next Monday
    assert.equal(isResetDue('MONTHLY', created, Date.UTC(2024, 0, 31, 1, 0), tz), false);
    assert.equal(isResetDue('MONTHLY', created, Date.UTC(2024, 1, 1, 1, 0), tz), true);
    assert.equal(isResetDue('NEVER', 0, Date.UTC(2030, 0, 1), tz), false);
    // With a session start time the boundary is the start, not midnight.
    assert.equal(lastResetBoundary('DAILY', Date.UTC(2024, 0, 2, 0, 30), tz, '09:00'), Date.UTC(2024, 0, 1, 1, 0));
  });
});

describe('counterparty authenticator', () => {
  it('checks pair, activity, source IP, credentials and schedule, and hands the schedule to the session', async () => {
    const { CounterpartyAuthenticator } = await import('./authenticator');
    const schedule = { timeZone: 'Asia/Singapore', tradingDays: parseTradingDays('M,T,W,T,F'), startTime: '09:00', endTime: '17:00' };
    const auth = new CounterpartyAuthenticator((id) =>
      id.targetCompID === 'CLIENT'
        ? {
            active: true,
            username: 'u1',
            verifyPassword: (p: string) => p === 'secret',
            allowedSourceIps: ['10.1.0.0/16', '127.0.0.1'],
            schedule,
          }
        : id.targetCompID === 'OFF'
          ? { active: false }
          : undefined,
    );
    const base = {
      sessionID: { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT' },
      username: 'u1',
      password: 'secret',
      remoteAddress: '10.1.2.3',
      logon: undefined as never,
      now: Date.UTC(2024, 0, 2, 2, 0),
    };
    const ok = await auth.authenticate(base);
    assert.equal(ok.accept, true);
    assert.equal(ok.accept && ok.settings?.schedule, schedule);
    const reason = async (over: Partial<typeof base>) => {
      const d = await auth.authenticate({ ...base, ...over });
      return d.accept ? 'accepted' : d.reason;
    };
    assert.equal(
      await reason({ sessionID: { ...base.sessionID, targetCompID: 'NOPE' } }),
      'Unknown session: SenderCompID NOPE / TargetCompID BROKER',
    );
    assert.equal(await reason({ sessionID: { ...base.sessionID, targetCompID: 'OFF' } }), 'Session OFF is not active');
    assert.equal(await reason({ remoteAddress: '10.2.0.1' }), 'Connection from 10.2.0.1 not allowed');
    assert.equal(await reason({ password: 'wrong' }), 'Invalid username or password');
    assert.equal(await reason({ username: 'u2' }), 'Invalid username or password');
    assert.equal(await reason({ password: undefined }), 'Invalid username or password');
    assert.equal(await reason({ now: Date.UTC(2024, 0, 6, 2, 0) }), 'Logon outside of session time');
  });
});
