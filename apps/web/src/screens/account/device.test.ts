import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deviceName } from './device';

test('a session names its browser and system from the user agent', () => {
  assert.equal(
    deviceName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'),
    'Chrome on Linux',
  );
  assert.equal(
    deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1'),
    'Safari on iOS',
  );
  assert.equal(
    deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0'),
    'Edge on Windows',
  );
  assert.equal(deviceName('curl/8.5.0'), 'curl');
  assert.equal(deviceName(null), 'Unknown device');
});
