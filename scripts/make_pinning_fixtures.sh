#!/usr/bin/env bash
# Writes the X.509 chains the certificate-pinning tests read
# (Runtime/Tests/Fixtures/Pinning/), with the openssl command line. Run it
# again only to change the fixtures: the files it writes are committed, and
# every run makes new keys (so new pins; `pins.txt` changes with them).
#
#   root.pem               a root CA (EC P-256): the trust anchor of the tests'
#                          stand-in for the platform's evaluation (`openssl verify`)
#   intermediate.pem       an intermediate CA (RSA 2048) under the root
#   leaf.pem               api.safepocket.test, the served key, under the intermediate
#   leaf-rotated.pem       the same host with the backup key, after a rotation
#   leaf-other.pem         the same host with a key nobody pinned, under the same CA
#   leaf-expired.pem       the served key, valid for one day only (expired at the tests' fixed time)
#   leaf-self-signed.pem   the served key, self-signed (no CA vouches for it)
#   pins.txt               `<name> sha256/<base64>` for each key above, computed by
#                          openssl (SubjectPublicKeyInfo DER -> SHA-256 -> base64),
#                          the value the Swift code must find on its own
#
# The CA and valid leaf certificates are valid for 100 years from the day
# this runs: the tests verify them at a fixed time (2100-01-01), so their
# outcome never changes. No private key is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Runtime/Tests/Fixtures/Pinning
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

days=36500
host=api.safepocket.test

ec_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

cat >"$work/ca.ext" <<'EOF'
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF
cat >"$work/leaf.ext" <<EOF
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:$host
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF

# The root, self-signed.
ec_key "$work/root.key"
openssl req -x509 -new -key "$work/root.key" -subj "/CN=Pinning Test Root CA" -days "$days" -sha256 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$out/root.pem"

# The intermediate, RSA (its DER has long-form lengths), signed by the root.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/intermediate.key" 2>/dev/null
openssl req -new -key "$work/intermediate.key" -subj "/CN=Pinning Test Intermediate CA" -out "$work/intermediate.csr"
openssl x509 -req -in "$work/intermediate.csr" -CA "$out/root.pem" -CAkey "$work/root.key" -set_serial 2 -days "$days" -sha256 \
    -extfile "$work/ca.ext" -out "$out/intermediate.pem" 2>/dev/null

# Leaf certificates for the host, each signed by the intermediate: `leaf NAME KEY DAYS`.
leaf() {
    openssl req -new -key "$work/$2.key" -subj "/CN=$host" -out "$work/$1.csr"
    openssl x509 -req -in "$work/$1.csr" -CA "$out/intermediate.pem" -CAkey "$work/intermediate.key" -set_serial "0x$(openssl rand -hex 8)" \
        -days "$3" -sha256 -extfile "$work/leaf.ext" -out "$out/$1.pem" 2>/dev/null
}
ec_key "$work/served.key"
ec_key "$work/backup.key"
ec_key "$work/other.key"
leaf leaf served "$days"
leaf leaf-rotated backup "$days"
leaf leaf-other other "$days"
leaf leaf-expired served 1
openssl req -x509 -new -key "$work/served.key" -subj "/CN=$host" -days "$days" -sha256 -addext "subjectAltName=DNS:$host" \
    -out "$out/leaf-self-signed.pem"

# The pins, as RFC 7469 computes them: SHA-256 of the SubjectPublicKeyInfo DER, base64.
pin() { openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64; }
{
    echo "root sha256/$(pin "$out/root.pem")"
    echo "intermediate sha256/$(pin "$out/intermediate.pem")"
    echo "served sha256/$(pin "$out/leaf.pem")"
    echo "backup sha256/$(pin "$out/leaf-rotated.pem")"
    echo "other sha256/$(pin "$out/leaf-other.pem")"
} >"$out/pins.txt"
echo "pinning fixtures: $(ls "$out" | wc -l) files in $out"
