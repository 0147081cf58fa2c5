import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLogoImage, fetchRemoteLogo, isPublicAddress } from './remote-logo';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b80000000049454e44ae426082',
  'hex',
);

describe('a connector logo fetched by the server', () => {
  it('reaches public addresses only', () => {
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.5',
      '172.16.4.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::2',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'not-an-address',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])
      assert.equal(isPublicAddress(a), true, a);
  });

  it('refuses before any connection: http, credentials, and hosts that are or resolve to addresses that are not public', async () => {
    const resolve = async (host: string) =>
      ({
        'intranet.example': [{ address: '10.0.0.5', family: 4 }],
        'rebind.example': [
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
        'metadata.example': [{ address: 'fe80::1', family: 6 }],
      })[host] ?? assert.fail(`resolved ${host}`);
    const cases: [string, RegExp][] = [
      ['http://logo.example/a.png', /must be an https URL \(not http\)/],
      ['ftp://logo.example/a.png', /must be an https URL/],
      ['https://user:pw@logo.example/a.png', /user name or password/],
      ['https://127.0.0.1/a.png', /names 127\.0\.0\.1, an address that is not public/],
      ['https://[::1]:8443/a.png', /names ::1, an address that is not public/],
      ['https://169.254.169.254/latest/meta-data/', /names 169\.254\.169\.254/],
      ['https://[::ffff:a00:1]/a.png', /not public/],
      ['https://0x7f000001/a.png', /not public/],
      ['https://intranet.example/a.png', /intranet\.example, which resolves to 10\.0\.0\.5, an address that is not public/],
      ['https://rebind.example/a.png', /resolves to 127\.0\.0\.1/],
      ['https://metadata.example/a.png', /resolves to fe80::1/],
    ];
    for (const [url, reason] of cases) {
      const got = await fetchRemoteLogo(url, { resolve });
      assert.equal(got.ok, false, url);
      assert.match((got as { reason: string }).reason, reason, url);
    }
  });

  it('takes an image of the type its Content-Type names, and sanitises SVG as the broker logo is', () => {
    const png = checkLogoImage(PNG, 'image/png');
    assert.ok(png.ok && png.contentType === 'image/png' && png.image.equals(PNG) && /^[0-9a-f]{64}$/.test(png.sha256));
    assert.match(
      (checkLogoImage(Buffer.from('<html><img src=x></html>'), 'text/html; charset=utf-8') as { reason: string }).reason,
      /not an image the desk shows \(Content-Type text\/html/,
    );
    assert.match(
      (checkLogoImage(PNG, 'image/svg+xml') as { reason: string }).reason,
      /does not hold the image\/svg\+xml its Content-Type says \(it is image\/png\)/,
    );
    assert.match((checkLogoImage(Buffer.from('GIF89a'), 'image/png') as { reason: string }).reason, /does not hold the image\/png/);
    const svg = checkLogoImage(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><image href="https://tracker.example/p.gif"/><rect width="4" height="4"/></svg>',
      ),
      'image/svg+xml',
    );
    assert.ok(svg.ok, JSON.stringify(svg));
    const text = svg.image.toString('utf8');
    assert.ok(!/script|onload|tracker/.test(text) && text.includes('<rect'), text);
    assert.match(
      (checkLogoImage(Buffer.from('<svg><div>x</div></svg>'), 'image/svg+xml') as { reason: string }).reason,
      /SVG image the desk refuses: .*HTML/,
    );
  });
});
