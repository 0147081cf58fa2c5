import { createHash, randomBytes, webcrypto } from 'node:crypto';

/**
 * The password-protected client document: AES-256-GCM under a key derived from the password
 * with PBKDF2-SHA-256 and a random salt. The file holds the ciphertext, the salt, the IV, the iteration
 * count and a small decryption page using the browser's Web Crypto: the same algorithm the server uses
 * here through Node's Web Crypto, so `decryptDocument` is what the page does. The password is only ever
 * in memory for the derivation.
 */

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;

export interface EncryptedPayload {
  v: 1;
  kdf: 'PBKDF2-SHA-256';
  iterations: number;
  cipher: 'AES-256-GCM';
  salt: string;
  iv: string;
  ciphertext: string;
}

const subtle = webcrypto.subtle;
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

async function deriveKey(password: string, salt: Uint8Array, iterations: number, usage: 'encrypt' | 'decrypt') {
  const material = await subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey']);
  return subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, [
    usage,
  ]);
}

export async function encryptDocument(plaintext: string, password: string, iterations = PBKDF2_ITERATIONS): Promise<EncryptedPayload> {
  if (iterations < PBKDF2_ITERATIONS) throw new Error(`PBKDF2 needs at least ${PBKDF2_ITERATIONS} iterations`);
  const salt = new Uint8Array(randomBytes(SALT_BYTES));
  const iv = new Uint8Array(randomBytes(IV_BYTES));
  const key = await deriveKey(password, salt, iterations, 'encrypt');
  const ciphertext = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext)));
  return { v: 1, kdf: 'PBKDF2-SHA-256', iterations, cipher: 'AES-256-GCM', salt: b64(salt), iv: b64(iv), ciphertext: b64(ciphertext) };
}

/** The plaintext, or null when the password is wrong (the GCM tag does not verify) or the file was altered. */
export async function decryptDocument(p: EncryptedPayload, password: string): Promise<string | null> {
  try {
    const key = await deriveKey(password, unb64(p.salt), p.iterations, 'decrypt');
    const plain = await subtle.decrypt({ name: 'AES-GCM', iv: unb64(p.iv) }, key, unb64(p.ciphertext));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** Shown when decryption fails; says nothing of the content. */
const WRONG_PASSWORD_TEXT = 'Incorrect password: the document could not be opened. Check the password you were given and try again.';

/**
 * The decryption page's script. It reads the payload, derives the key, decrypts, and puts the document
 * in place; it then switches tabs (header colour and title follow the active tab) and copies examples.
 */
const DECRYPT_SCRIPT = `(function () {
  var payload = JSON.parse(document.getElementById('payload').textContent);
  var form = document.getElementById('lock');
  var error = document.getElementById('error');
  var b = function (s) { return Uint8Array.from(atob(s), function (c) { return c.charCodeAt(0); }); };
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    error.hidden = true;
    var button = form.querySelector('button');
    button.disabled = true;
    button.textContent = 'Opening…';
    var password = document.getElementById('password').value;
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) { error.textContent = 'This browser cannot decrypt the document (Web Crypto is unavailable).'; error.hidden = false; return; }
    subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey'])
      .then(function (m) { return subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: b(payload.salt), iterations: payload.iterations }, m, { name: 'AES-GCM', length: 256 }, false, ['decrypt']); })
      .then(function (k) { return subtle.decrypt({ name: 'AES-GCM', iv: b(payload.iv) }, k, b(payload.ciphertext)); })
      .then(function (plain) {
        var doc = document.getElementById('document');
        doc.innerHTML = new TextDecoder().decode(plain);
        document.getElementById('lock').remove();
        doc.hidden = false;
        wire(doc);
      })
      .catch(function () {
        error.textContent = ${JSON.stringify(WRONG_PASSWORD_TEXT)};
        error.hidden = false;
        button.disabled = false;
        button.textContent = 'Open';
      });
  });
  function wire(doc) {
    var header = doc.querySelector('.doc-header');
    var title = doc.querySelector('.doc-title');
    doc.addEventListener('click', function (ev) {
      var tab = ev.target.closest('[data-tab-target]');
      if (tab) {
        doc.querySelectorAll('[data-tab-target]').forEach(function (t) { t.classList.toggle('active', t === tab); });
        doc.querySelectorAll('[data-tab]').forEach(function (p) {
          var on = p.getAttribute('data-tab') === tab.getAttribute('data-tab-target');
          p.hidden = !on;
          if (on) title.textContent = p.getAttribute('data-title');
        });
        header.style.background = tab.getAttribute('data-colour');
        return;
      }
      var copy = ev.target.closest('[data-copy]');
      if (copy && navigator.clipboard) {
        navigator.clipboard.writeText(copy.getAttribute('data-copy')).then(function () {
          copy.textContent = 'Copied!';
          setTimeout(function () { copy.textContent = 'Copy'; }, 2000);
        });
      }
    });
  }
})();`;

const SCRIPT_HASH = `sha256-${createHash('sha256').update(DECRYPT_SCRIPT).digest('base64')}`;

const PAGE_CSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#212529;background:#f8f9fa}
main{max-width:1200px;margin:0 auto;padding:20px}
#lock{max-width:420px;margin:12vh auto;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:24px}
#lock h1{font-size:19px;margin:0 0 6px}
#lock p{font-size:13.5px;color:#495057}
#lock input{width:100%;box-sizing:border-box;padding:8px;font-size:15px;border:1px solid #ced4da;border-radius:4px;margin:6px 0 12px}
#lock button{padding:8px 18px;font-size:14px;border:0;border-radius:4px;background:#1c7ed6;color:#fff;cursor:pointer}
#error{color:#c92a2a;font-size:13.5px;margin-top:10px}
#document{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:16px}
`;

/**
 * The self-contained file: the payload as JSON data, the decryption page and nothing else. The content
 * security policy allows only its own script and inline styles, so the document cannot reach the network.
 */
export function renderEncryptedPage(payload: EncryptedPayload): string {
  // '<' is escaped so the JSON cannot close its script element.
  const data = JSON.stringify(payload).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src '${SCRIPT_HASH}'; style-src 'unsafe-inline'; img-src data:">
<meta name="referrer" content="no-referrer">
<title>FIX Specification (password protected)</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<form id="lock" autocomplete="off">
<h1>FIX Specification</h1>
<p>This document is encrypted (AES-256-GCM, key derived from your password with PBKDF2-SHA-256, ${payload.iterations.toLocaleString('en-US')} iterations). Enter the password the desk gave you. Nothing is sent anywhere: it is decrypted in this browser.</p>
<label for="password">Password</label>
<input id="password" type="password" required autofocus>
<button type="submit">Open</button>
<div id="error" role="alert" hidden></div>
</form>
<div id="document" hidden></div>
</main>
<script id="payload" type="application/json">${data}</script>
<script>${DECRYPT_SCRIPT}</script>
</body>
</html>
`;
}
