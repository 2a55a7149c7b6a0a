// The harness decides its own paying application's host guard from the
// allow-list it gave it: a token URI on another host is refused, naming the host
// and --allow-host; anything the application itself must judge (a URI of no
// profile form, an http endpoint) is left to it.
import { describe, expect, it } from 'vitest';
import { refusedDeliveryUri } from '../../../harness/target/host-guard.ts';
import { checkAllowedHosts } from '../../../reference/paying-app/hosts.ts';

const TOKEN = 'ab'.repeat(16);
const uri = (endpoint: string) => `std-cpr://${TOKEN}?endpoint=${encodeURIComponent(endpoint)}`;
const allowed = checkAllowedHosts(['localhost:8443', '[::1]']);

describe('refusedDeliveryUri', () => {
  it.each([
    ['https://localhost:8443/shops/acme%20gmbh', 'its own host and port'],
    ['https://LOCALHOST:8443', 'its host in capitals'],
    ['https://[0:0:0:0:0:0:0:1]:9443/pay/acme(eu)', 'an allowed IPv6 host, any port, in another spelling'],
  ])('lets %s through: %s', (endpoint) => {
    expect(refusedDeliveryUri(uri(endpoint), allowed)).toBeUndefined();
  });

  it.each([
    ['https://127.0.0.1:8443', '127.0.0.1:8443'],
    ['https://localhost:9443', 'localhost:9443'],
    ['https://payee.example/pay', 'payee.example:443'],
  ])('refuses %s, naming %s and the --allow-host that allows it', (endpoint, host) => {
    const refused = refusedDeliveryUri(uri(endpoint), allowed);
    expect(refused).toContain(`is on ${host}, not one of the target's own hosts (localhost:8443, [::1])`);
    expect(refused).toMatch(new RegExp(`allow it with --allow-host ${host.replace(/[.[\]]/g, '\\$&')}$`));
  });

  it.each([
    ['an http endpoint', uri('http://127.0.0.1:8080')],
    ['a trailing slash', uri('https://127.0.0.1:8443/')],
    ['an inline URI', 'std-cpr://inline/eyJhIjoxfQ'],
    ['not a URI at all', 42],
  ])('leaves %s to the paying application', (_what, given) => {
    expect(refusedDeliveryUri(given, allowed)).toBeUndefined();
  });
});
