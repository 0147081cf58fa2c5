import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDesktopUserAgent } from './desktopShell';

describe('desktop shell detection', () => {
  it('recognises native wrappers by their user agent token', () => {
    assert.equal(
      isDesktopUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 FixDesk/1.0.0 Chrome/130.0 Electron/33.2.0 Safari/537.36'),
      true,
    );
    assert.equal(isDesktopUserAgent('Mozilla/5.0 Chrome/156.0 Safari/537.36 FixDeskDesktop/1.2'), true);
  });
  it('treats an ordinary browser as not the shell', () => {
    assert.equal(isDesktopUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36'), false);
    assert.equal(isDesktopUserAgent('Mozilla/5.0 FixDeskDesktop Safari'), false);
  });
});
