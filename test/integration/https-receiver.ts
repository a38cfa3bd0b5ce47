import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';

/** A test CA made at test time, and a server certificate it signed for localhost / 127.0.0.1. */
export interface TestPki {
  caFile: string;
  key: string;
  cert: string;
}

let pki: TestPki | undefined;

function rsaKeys() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(
  subject: string,
  keys: ReturnType<typeof rsaKeys>,
  issuer: { name: string; key: forge.pki.rsa.PrivateKey },
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = crypto
    .randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer.name }]);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

export function testPki(): TestPki {
  if (pki) return pki;
  const caKeys = rsaKeys();
  const ca = certificate('pi test CA', caKeys, { name: 'pi test CA', key: caKeys.privateKey }, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const serverKeys = rsaKeys();
  const server = certificate('localhost', serverKeys, { name: 'pi test CA', key: caKeys.privateKey }, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-test-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, forge.pki.certificateToPem(ca));
  pki = { caFile, key: serverKeys.pem, cert: forge.pki.certificateToPem(server) };
  return pki;
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** the status answered */
  status: number;
}

export type Responder = (request: { path: string; n: number; body: string }) => { status: number; delayMs?: number };

/** An HTTPS endpoint with the test CA's certificate that records every request it gets. */
export async function startReceiver(respond: Responder = () => ({ status: 204 })) {
  const { key, cert } = testPki();
  const received: Received[] = [];
  // Answers still waiting for their delay: a closed receiver gives them up.
  const answering = new Set<NodeJS.Timeout>();
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const n = received.filter((r) => r.path === path).length + 1;
      const answer = respond({ path, n, body });
      received.push({ path, headers: req.headers, body, at: Date.now(), status: answer.status });
      const timer = setTimeout(() => {
        answering.delete(timer);
        if (!res.destroyed) res.writeHead(answer.status).end();
      }, answer.delayMs ?? 0);
      answering.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (p: string) => `https://localhost:${port}${p}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of answering) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Standard Webhooks verification, written from the specification (not from our signer). */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
