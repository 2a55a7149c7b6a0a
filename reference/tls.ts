// TLS material for the reference: a throw-away CA generated at start-up and a
// loopback server certificate it signs. The harness is told to trust the CA (a
// real trust decision), never to skip verification.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type KeyPair = webcrypto.CryptoKeyPair;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 24 * 60 * 60 * 1000;

export interface TlsMaterial {
  /** PEM of the CA certificate that clients should trust. */
  readonly ca: string;
  /** PEM of the server certificate (valid for localhost, 127.0.0.1 and ::1). */
  readonly cert: string;
  /** PEM (PKCS #8) of the server's private key. */
  readonly key: string;
}

/** A certificate authority of its own: the PEM of its certificate, and what issues server certificates under it. */
interface TlsAuthority {
  /** PEM of the CA certificate that clients should trust. */
  readonly ca: string;
  /**
   * A server certificate (PEM) and its private key (PEM, PKCS #8) for `hosts`: by default localhost, 127.0.0.1 and ::1;
   * valid from a day ago for 30 days, or over `validity` (the harness's stub makes certificates out of date on purpose).
   */
  issue(hosts?: { dns?: string[]; ip?: string[] }, validity?: { readonly notBefore: Date; readonly notAfter: Date }): Promise<{ readonly cert: string; readonly key: string }>;
}

export async function createCertificateAuthority(): Promise<TlsAuthority> {
  const subtle = webcrypto.subtle;
  const notBefore = new Date(Date.now() - DAY);
  const notAfter = new Date(Date.now() + 30 * DAY);
  const caKeys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=cpr-conformance reference CA',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  return {
    ca: caCert.toString('pem'),
    async issue(hosts = {}, validity = { notBefore, notAfter }) {
      const leafKeys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
      const names = [
        ...(hosts.dns ?? ['localhost']).map((value) => ({ type: 'dns' as const, value })),
        ...(hosts.ip ?? ['127.0.0.1', '::1']).map((value) => ({ type: 'ip' as const, value })),
      ];
      const leaf = await x509.X509CertificateGenerator.create({
        subject: 'CN=localhost',
        issuer: caCert.subject,
        notBefore: validity.notBefore,
        notAfter: validity.notAfter,
        publicKey: leafKeys.publicKey,
        signingKey: caKeys.privateKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(names),
          await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
        ],
      });
      const pkcs8 = await subtle.exportKey('pkcs8', leafKeys.privateKey);
      return { cert: leaf.toString('pem'), key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
    },
  };
}

/** A CA of its own and one server certificate under it, for `hosts` (by default localhost, 127.0.0.1 and ::1). */
export async function createTlsMaterial(hosts: { dns?: string[]; ip?: string[] } = {}): Promise<TlsMaterial> {
  const authority = await createCertificateAuthority();
  return { ca: authority.ca, ...(await authority.issue(hosts)) };
}
