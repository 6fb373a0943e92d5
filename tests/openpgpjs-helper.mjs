// openpgpjs-helper.mjs - drives OpenPGP.js for test-interop-openpgpjs
//
//   node openpgpjs-helper.mjs decrypt PWFILE             < msg > plain
//   node openpgpjs-helper.mjs encrypt PWFILE AEAD CHUNKOCTET S2K ARMOR
//                                                       < plain > msg
//   node openpgpjs-helper.mjs v1 PWFILE S2K ARMOR        < plain > msg
//   node openpgpjs-helper.mjs genkey V6 AEADPROTECT PWFILE|- [TYPE] > key
//   node openpgpjs-helper.mjs cert KEYFILE                   > cert
//   node openpgpjs-helper.mjs fingerprint KEYFILE            > hex
//   node openpgpjs-helper.mjs encrypt-to CERTFILE            < plain > msg
//   node openpgpjs-helper.mjs decrypt-with KEYFILE PWFILE|-  < msg > plain
//   node openpgpjs-helper.mjs sign KEYFILE DETACHED           < plain > sig
//   node openpgpjs-helper.mjs verify CERTFILE SIGFILE|-       < data > plain
//   node openpgpjs-helper.mjs sign-encrypt KEYFILE CERTFILE   < plain > msg
//   node openpgpjs-helper.mjs decrypt-verify KEYFILE CERTFILE < msg > plain
//
// fingerprint prints the fingerprint of the key (or subkey) that sign
// signs with, in upper-case hex, and a newline.
// sign makes a detached signature (DETACHED 1) or a signed message, binary;
// verify checks a detached signature in SIGFILE over standard input, or
// (-) the signed message on standard input, writing its data; every
// signature must verify, else exit 1.
//
// AEAD is ocb, eax or gcm; CHUNKOCTET the chunk size octet (chunks of
// 2^(c+6) octets); S2K is iterated, argon2 (cheap parameters, t=1 p=1
// m=2^10 KiB) or argon2-default (OpenPGP.js's own, t=3 p=4 m=2^16 KiB);
// ARMOR is 0 or 1.  "encrypt" writes SEIPD v2 + SKESK v6, "v1" writes
// SEIPD v1 + SKESK v4.  "genkey" makes an Ed25519 + X25519 key (algorithms
// 27 and 25; TYPE curve448: Ed448 + X448, 28 and 26), v6 when V6 is 1,
// else v4, its secret protected with the
// password in PWFILE (AEAD, S2K usage 253, when AEADPROTECT is 1).  The openpgp module is found through OPENPGPJS_DIR
// (its node_modules/openpgp folder).  Failures exit 1 with the error on
// standard error and nothing more on standard output.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

function die (msg)
{
  process.stderr.write(`openpgpjs-helper: ${msg}\n`);
  process.exit(1);
}

const dir = process.env.OPENPGPJS_DIR;
if (!dir)
  die('OPENPGPJS_DIR is not set');
const openpgp = await import(pathToFileURL(join(dir, 'dist', 'node',
                                                'openpgp.mjs')).href);

// Standard input as a web stream of plain Uint8Arrays (not Buffers).
function stdinStream ()
{
  return Readable.toWeb(process.stdin).pipeThrough(new TransformStream({
    transform (chunk, controller) {
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset,
                                        chunk.byteLength));
    }
  }));
}

// Peeks at the first octets to tell armor from binary, then gives back a
// stream that still starts at the beginning.
async function peekStream (stream, want)
{
  const reader = stream.getReader();
  const head = [];
  let have = 0, done = false;
  while (have < want && !done)
    {
      const r = await reader.read();
      if (r.done)
        done = true;
      else if (r.value.length)
        {
          head.push(r.value);
          have += r.value.length;
        }
    }
  const prefix = new Uint8Array(have);
  let off = 0;
  for (const h of head)
    {
      prefix.set(h, off);
      off += h.length;
    }
  const rest = new ReadableStream({
    start (controller) {
      if (prefix.length)
        controller.enqueue(prefix);
      if (done)
        controller.close();
    },
    async pull (controller) {
      const r = await reader.read();
      if (r.done)
        controller.close();
      else
        controller.enqueue(r.value);
    },
    cancel (reason) { return reader.cancel(reason); }
  }, { highWaterMark: 0 });
  return { prefix, stream: rest };
}

function write (data)
{
  return new Promise((resolve, reject) => {
    const onError = (e) => reject(e);
    process.stdout.once('error', onError);
    if (process.stdout.write(data))
      {
        process.stdout.off('error', onError);
        resolve();
      }
    else
      process.stdout.once('drain', () => {
        process.stdout.off('error', onError);
        resolve();
      });
  });
}

// Collects a result (string, Uint8Array or web stream) before writing:
// nothing reaches standard output unless the whole job succeeded.
async function collect (data)
{
  if (typeof data === 'string')
    return new TextEncoder().encode(data);
  if (data instanceof Uint8Array)
    return data;
  const parts = [];
  let total = 0;
  const reader = data.getReader();
  for (;;)
    {
      const r = await reader.read();
      if (r.done)
        break;
      const v = typeof r.value === 'string'
        ? new TextEncoder().encode(r.value) : r.value;
      parts.push(v);
      total += v.length;
    }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts)
    {
      out.set(p, off);
      off += p.length;
    }
  return out;
}

async function output (data)
{
  const bytes = await collect(data);
  for (let off = 0; off < bytes.length; off += 1 << 20)
    await write(bytes.subarray(off, Math.min(bytes.length, off + (1 << 20))));
}

function s2kConfig (s2k, config)
{
  if (s2k === 'iterated')
    config.s2kType = openpgp.enums.s2k.iterated;
  else if (s2k === 'argon2' || s2k === 'argon2-default')
    {
      config.s2kType = openpgp.enums.s2k.argon2;
      if (s2k === 'argon2')
        config.s2kArgon2Params = { passes: 1, parallelism: 1,
                                   memoryExponent: 10 };
    }
  else
    die(`unknown S2K ${s2k}`);
}

async function decrypt (pwfile)
{
  const password = readFileSync(pwfile, 'utf8');
  const { prefix, stream } = await peekStream(stdinStream(), 64);
  const text = new TextDecoder('latin1').decode(prefix);
  let message;
  if (/^\s*-----BEGIN PGP/.test(text))
    message = await openpgp.readMessage({
      armoredMessage: stream.pipeThrough(new TextDecoderStream())
    });
  else
    message = await openpgp.readMessage({ binaryMessage: stream });
  const { data } = await openpgp.decrypt({
    message, passwords: [password], format: 'binary'
  });
  await output(data);
}

async function encrypt (pwfile, aead, chunk, s2k, armor, v1)
{
  const password = readFileSync(pwfile, 'utf8');
  const config = { aeadProtect: !v1 };
  if (!v1)
    {
      if (!(aead in openpgp.enums.aead))
        die(`unknown AEAD ${aead}`);
      config.preferredAEADAlgorithm = openpgp.enums.aead[aead];
      config.aeadChunkSizeByte = Number.parseInt(chunk, 10);
    }
  s2kConfig(s2k, config);
  const message = await openpgp.createMessage({ binary: stdinStream() });
  const data = await openpgp.encrypt({
    message, passwords: [password], config,
    format: armor === '1' ? 'armored' : 'binary'
  });
  await output(data);
}

function password (pwfile)
{
  return pwfile === '-' ? undefined : readFileSync(pwfile, 'utf8');
}

async function genkey (v6, aeadProtect, pwfile, type)
{
  const config = { v6Keys: v6 === '1', aeadProtect: aeadProtect === '1' };
  const { privateKey } = await openpgp.generateKey({
    type: type || 'curve25519', userIDs: [{ name: 'Js', email: 'js@example.org' }],
    passphrase: password(pwfile), format: 'armored', config
  });
  await output(privateKey);
}

async function cert (keyfile)
{
  const key = await openpgp.readKey({ armoredKey: readFileSync(keyfile, 'utf8') });
  await output(key.toPublic().armor());
}

async function fingerprint (keyfile)
{
  const key = await readAnyKey(keyfile);
  const signing = await key.getSigningKey();
  await output(signing.getFingerprint().toUpperCase() + '\n');
}

async function readAnyKey (file)
{
  const data = readFileSync(file);
  if (/-----BEGIN PGP/.test(data.subarray(0, 64).toString('latin1')))
    return openpgp.readKey({ armoredKey: data.toString('utf8') });
  return openpgp.readKey({ binaryKey: new Uint8Array(data) });
}

async function encryptTo (certfile)
{
  const encryptionKeys = await readAnyKey(certfile);
  const message = await openpgp.createMessage({ binary: stdinStream() });
  await output(await openpgp.encrypt({ message, encryptionKeys,
                                       format: 'binary' }));
}

async function decryptWith (keyfile, pwfile)
{
  let key = await readAnyKey(keyfile);
  if (!key.isDecrypted())
    key = await openpgp.decryptKey({ privateKey: key,
                                     passphrase: password(pwfile) });
  const { prefix, stream } = await peekStream(stdinStream(), 64);
  const text = new TextDecoder('latin1').decode(prefix);
  const message = /^\s*-----BEGIN PGP/.test(text)
    ? await openpgp.readMessage({
        armoredMessage: stream.pipeThrough(new TextDecoderStream()) })
    : await openpgp.readMessage({ binaryMessage: stream });
  const { data } = await openpgp.decrypt({ message, decryptionKeys: key,
                                           format: 'binary' });
  await output(data);
}

function readAny (data, armored, binary)
{
  if (/-----BEGIN PGP/.test(Buffer.from(data).subarray(0, 64).toString('latin1')))
    return armored(Buffer.from(data).toString('utf8'));
  return binary(new Uint8Array(data));
}

async function sign (keyfile, detached)
{
  const signingKeys = await readAnyKey(keyfile);
  const message = await openpgp.createMessage({
    binary: new Uint8Array(readFileSync(0)) });
  await output(await openpgp.sign({ message, signingKeys,
                                    detached: detached === '1',
                                    format: 'binary' }));
}

// Every signature verified, or an exception.
async function allVerified (signatures)
{
  if (!signatures.length)
    die('no signature');
  for (const s of signatures)
    await s.verified;
}

async function verify (certfile, sigfile)
{
  const verificationKeys = await readAnyKey(certfile);
  const input = readFileSync(0);
  if (sigfile !== '-')
    {
      const signature = await readAny(readFileSync(sigfile),
        (a) => openpgp.readSignature({ armoredSignature: a }),
        (b) => openpgp.readSignature({ binarySignature: b }));
      const message = await openpgp.createMessage({
        binary: new Uint8Array(input) });
      const { signatures } = await openpgp.verify({ message, signature,
                                                    verificationKeys });
      await allVerified(signatures);
      return;
    }
  const message = await readAny(input,
    (a) => openpgp.readMessage({ armoredMessage: a }),
    (b) => openpgp.readMessage({ binaryMessage: b }));
  const { data, signatures } = await openpgp.verify({
    message, verificationKeys, format: 'binary' });
  await allVerified(signatures);
  await output(data);
}

async function signEncrypt (keyfile, certfile)
{
  const signingKeys = await readAnyKey(keyfile);
  const encryptionKeys = await readAnyKey(certfile);
  const message = await openpgp.createMessage({
    binary: new Uint8Array(readFileSync(0)) });
  await output(await openpgp.encrypt({ message, signingKeys, encryptionKeys,
                                       format: 'binary' }));
}

async function decryptVerify (keyfile, certfile)
{
  const decryptionKeys = await readAnyKey(keyfile);
  const verificationKeys = await readAnyKey(certfile);
  const message = await readAny(readFileSync(0),
    (a) => openpgp.readMessage({ armoredMessage: a }),
    (b) => openpgp.readMessage({ binaryMessage: b }));
  const { data, signatures } = await openpgp.decrypt({
    message, decryptionKeys, verificationKeys, format: 'binary',
    expectSigned: true });
  await allVerified(signatures);
  await output(data);
}

const [cmd, ...args] = process.argv.slice(2);
try
  {
    if (cmd === 'decrypt' && args.length === 1)
      await decrypt(args[0]);
    else if (cmd === 'encrypt' && args.length === 5)
      await encrypt(args[0], args[1], args[2], args[3], args[4], false);
    else if (cmd === 'v1' && args.length === 3)
      await encrypt(args[0], null, null, args[1], args[2], true);
    else if (cmd === 'genkey' && (args.length === 3 || args.length === 4))
      await genkey(args[0], args[1], args[2], args[3]);
    else if (cmd === 'cert' && args.length === 1)
      await cert(args[0]);
    else if (cmd === 'fingerprint' && args.length === 1)
      await fingerprint(args[0]);
    else if (cmd === 'encrypt-to' && args.length === 1)
      await encryptTo(args[0]);
    else if (cmd === 'decrypt-with' && args.length === 2)
      await decryptWith(args[0], args[1]);
    else if (cmd === 'sign' && args.length === 2)
      await sign(args[0], args[1]);
    else if (cmd === 'verify' && args.length === 2)
      await verify(args[0], args[1]);
    else if (cmd === 'sign-encrypt' && args.length === 2)
      await signEncrypt(args[0], args[1]);
    else if (cmd === 'decrypt-verify' && args.length === 2)
      await decryptVerify(args[0], args[1]);
    else
      die('usage: decrypt PWFILE | encrypt PWFILE AEAD CHUNKOCTET S2K ARMOR'
          + ' | v1 PWFILE S2K ARMOR | genkey V6 AEADPROTECT PWFILE'
          + ' | cert KEYFILE | encrypt-to CERTFILE'
          + ' | decrypt-with KEYFILE PWFILE');
  }
catch (e)
  {
    die(e && e.stack ? e.stack : String(e));
  }
