// The commented target file `cpr-conformance init` writes. As written it is valid
// (example URLs); fill in the base URLs and uncomment what applies.
export function targetTemplate(): string {
  return TEMPLATE;
}

const TEMPLATE = `# cpr-conformance target file: what is tested, and how the harness reaches it.
# Schema: harness/target/target.schema.json. Adapters: harness/ADAPTERS.md.
# Relative paths (files, modules) are relative to this file. A role that is left
# out is not tested: its tests are reported as skipped, never as passed.
#
# Run with:  npx cpr-conformance run --target this-file.yaml

# Shown in the report (default: this file's name).
name: my-implementation

# ---------------------------------------------------------------------------
# The payee system (spec §1.1, §4.1, §5.1): serves CPRs through retrieval tokens.
payee:
  # http: the role over the network. Alternatives: module (an in-process
  # JS/TS module) and process (a child process speaking JSON lines).
  adapter: http
  # The absolute base URL; the payee serves GET <base_url>/cpr/<token>.
  base_url: https://payee.example.test:8443
  # Where the same payee listens on plaintext HTTP, if anywhere: the suite then
  # checks that a token sent in the clear is refused and burned (spec §5.1.4).
  # plaintext_base_url: http://payee.example.test:8080

  # TLS trust: certificates are verified against the system's trust store, or
  # against ca_file. insecure: true skips verification; the report records it.
  # Give one of them, not both.
  # tls:
  #   ca_file: ./ca.pem
  #   insecure: true

  # The test-control interface (PROFILE.md §12), if it needs a bearer token.
  # token_env names an environment variable holding it (keeps it out of files).
  # control:
  #   token_env: CPR_CONTROL_TOKEN
  #   token: not-recommended-in-a-file

  # Which test-control capabilities exist: auto asks GET /_control/capabilities
  # (no answer means none). Or list them: provision, clock, cancel, balance,
  # fulfil, lease. Tests that need a missing one are skipped, naming it; with
  # lease, every run holds the target's test control while it runs.
  capabilities: auto

  # adapter: module instead of http:
  # adapter: module
  # module: ./my-payee-adapter.mjs
  # settings: { anything: handed to createRole as is }

  # adapter: process instead of http (run in this file's folder):
  # adapter: process
  # command: [python3, ./my_payee_adapter.py]
  # settings: { passed: as JSON in CPR_CONFORMANCE_SETTINGS }

# ---------------------------------------------------------------------------
# The cash-pack operator (spec §1.2, §4.2, §4.3): issue, renew, redeem, status.
operator:
  adapter: http
  # The operator serves /v1/cashpack/* and /.well-known/cashpack-*.json here.
  base_url: https://operator.example.test:8443
  # tls:
  #   ca_file: ./ca.pem
  # control:
  #   token_env: CPR_CONTROL_TOKEN
  capabilities: auto

  # Keys the operator already knows, for implementations without the provision
  # capability. Each file is an Ed25519 JWK with its private part "d" (RFC 8037);
  # the harness checks that x is the public key of d. Never reported.
  # credentials:
  #   principal:                 # issues cash-packs
  #     private_key_file: ./keys/principal.jwk.json
  #   redeemer:                  # an identified redeemer
  #     private_key_file: ./keys/redeemer.jwk.json
  #     identity_level: 2        # 0 to 3: what the operator verified
  #   staff:                     # reads pack status as the Operator (PROFILE.md §5)
  #     private_key_file: ./keys/staff.jwk.json

# ---------------------------------------------------------------------------
# The paying application (spec §4.4-§4.8): reads a CPR and derives a Payment.
# A library, not an HTTP service: adapter module or process. Uncomment one.
# paying_app:
#   adapter: module
#   # Exports createRole({ role, settings, ca }) returning { read, derive }.
#   module: ./my-paying-app-adapter.mjs
#   settings: {}
#   # The CA it must trust to retrieve CPRs from the payee over TLS.
#   tls:
#     ca_file: ./ca.pem
#
#   # Or any language, as a child process (see harness/ADAPTERS.md):
#   adapter: process
#   command: [node, ./my-paying-app.mjs]
`;
