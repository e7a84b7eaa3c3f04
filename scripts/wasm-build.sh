#!/usr/bin/env bash
# The page's engine in WebAssembly: builds crates/sowing-wasm for wasm32-unknown-unknown and
# puts the result, with a record of the sources it came from, in
# crates/sowing-web/static/engine/ (committed, so `sow serve` needs no extra toolchain).
#
#   scripts/wasm-build.sh           rebuild if the sources changed since the committed build
#   scripts/wasm-build.sh --force   rebuild anyway
#   scripts/wasm-build.sh --check   only say whether the committed build is up to date
#                                   (exit 1 if not): what scripts/test runs, in a second
#
# The toolchain: rustup here has no standard library for wasm32-unknown-unknown, so the
# build runs in a Debian trixie root (its rustc 1.85 with libstd-rust-dev-wasm32, lld,
# clang for zstd's C code, binaryen's wasm-opt) made once with debootstrap under
# target/wasm-root/ and kept (needs root, debootstrap and the network the first time).
# README.md, "The engine in the browser", says why.
set -euo pipefail
cd "$(dirname "$0")/.."

out=crates/sowing-web/static/engine
wasm=$out/sowing.wasm
record=$out/sowing.wasm.sources
root=target/wasm-root/trixie
packages="rustc cargo libstd-rust-dev-wasm32 lld clang binaryen ca-certificates"
mode=${1:-build}

# The sources that go into the .wasm: the five crates' manifests, code and data (not their
# tests, examples or benchmarks), the release profile, and every package of Cargo.lock
# the build uses, with its version and features.
sources_digest() {
  {
    find crates/sowing crates/sowing-engine crates/sowing-tables crates/sowing-views crates/sowing-wasm \
      \( -name tests -o -name examples -o -name benches -o -name target \) -prune -o \
      -type f \( -name '*.rs' -o -path '*/data/*' \) -print |
      LC_ALL=C sort | xargs sha256sum
    # The manifests without what only tests, examples and benchmarks use.
    for manifest in crates/sowing{,-engine,-tables,-views,-wasm}/Cargo.toml; do
      echo "$manifest"
      awk '/^\[/ { skip = ($0 ~ /^\[(dev-dependencies|\[test\]|\[bench\]|\[example\])/) } !skip' "$manifest"
    done
    sed -n '/^\[profile.release\]/,/^$/p' Cargo.toml
    cargo tree --locked -q -p sowing-wasm --target wasm32-unknown-unknown \
      -e normal,build --prefix none --format '{p} {f}' |
      sed 's| (/[^)]*)||; s| (\*)||' | LC_ALL=C sort -u
  } | sha256sum | cut -d' ' -f1
}

digest=$(sources_digest)
recorded=$(sed -n 's/^sources //p' "$record" 2>/dev/null || true)
case $mode in
  --check)
    if [ "$digest" = "$recorded" ]; then
      echo "wasm-build: $wasm is up to date with its sources"
      exit 0
    fi
    echo "wasm-build: $wasm is stale: its sources changed since it was built" >&2
    echo "  (sources $digest, built from ${recorded:-nothing}); run scripts/wasm-build.sh and commit $out" >&2
    exit 1
    ;;
  build)
    if [ "$digest" = "$recorded" ] && [ -f "$wasm" ]; then
      echo "wasm-build: $wasm is up to date"
      exit 0
    fi
    ;;
  --force) ;;
  *)
    echo "usage: scripts/wasm-build.sh [--check|--force]" >&2
    exit 2
    ;;
esac

# The toolchain root, made once (about two minutes) and kept.
if [ "$(cat "$root/.sowing-packages" 2>/dev/null)" != "$packages" ]; then
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap; }
    rm -rf "$root.partial"
    mkdir -p "$(dirname "$root")"
    debootstrap --variant=minbase trixie "$root.partial" http://deb.debian.org/debian
    mv "$root.partial" "$root"
  fi
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages"
  echo "$packages" >"$root/.sowing-packages"
fi

# The workspace, copied in (mtimes kept, so cargo rebuilds only what changed); cargo's
# downloads and build stay in the root between runs.
mkdir -p "$root/build/src"
tar -cf - --exclude=target --exclude=node_modules --exclude='*.so' Cargo.toml Cargo.lock crates |
  tar -C "$root/build/src" -xf -
# The project's own crates are always compiled again (some twenty seconds): an mtime kept
# by the copy can be older than a build that read an earlier version of the file.
rm -rf "$root/build/target/wasm32-unknown-unknown/release/.fingerprint/sowing"*
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$root/build/certs.pem"
chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/build CARGO_HOME=/build/cargo \
  SSL_CERT_FILE=/build/certs.pem CARGO_HTTP_CAINFO=/build/certs.pem CARGO_TARGET_DIR=/build/target CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
  sh -c 'cd /build/src && cargo build --locked --release -p sowing-wasm --lib --target wasm32-unknown-unknown'
built=$root/build/target/wasm32-unknown-unknown/release/sowing_wasm.wasm
mkdir -p "$out"
chroot "$root" wasm-opt -O3 --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int /build/target/wasm32-unknown-unknown/release/sowing_wasm.wasm \
  -o /build/sowing.wasm
cp "$root/build/sowing.wasm" "$wasm"
{
  echo "sources $digest"
  echo "rustc $(chroot "$root" rustc --version)"
  echo "wasm-opt $(chroot "$root" wasm-opt --version)"
  echo "unoptimised $(stat -c %s "$built") bytes"
} >"$record"
echo "wasm-build: $wasm ($(stat -c %s "$wasm") bytes) from sources $digest"
