#!/bin/sh
# Installs the tern binary: picks the release asset for this OS and CPU, verifies its SHA-256 against the
# release's SHA256SUMS, and puts `tern` in ~/.local/bin (or $TERN_INSTALL_DIR). Nothing is installed unless
# the checksum matches.
#
#   curl -fsSL https://github.com/@REPO@/releases/latest/download/install.sh | sh
#
# Environment:
#   TERN_INSTALL_DIR    where to put tern (default: ~/.local/bin)
#   TERN_VERSION        a release tag such as v0.2.0 (default: the latest release)
#   TERN_DOWNLOAD_BASE  where the assets are (default: the GitHub release; the tests serve fakes locally)
set -eu

# The release workflow replaces @REPO@ with owner/name in the copy it attaches to each release.
REPO="@REPO@"

say() { printf 'tern install: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) die "no tern binary for $(uname -s); install from source instead (see README: Install)" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) die "no tern binary for the CPU $(uname -m); install from source instead (see README: Install)" ;;
esac
asset="tern-$os-$arch.tar.gz"

if [ -n "${TERN_DOWNLOAD_BASE:-}" ]; then
  base="${TERN_DOWNLOAD_BASE%/}"
elif [ "${REPO#@}" != "$REPO" ]; then # still the placeholder (spelt so that stamping leaves this line)
  die "this copy of install.sh does not know its repository: use the one attached to a release, or set TERN_DOWNLOAD_BASE"
elif [ -n "${TERN_VERSION:-}" ]; then
  base="https://github.com/$REPO/releases/download/$TERN_VERSION"
else
  base="https://github.com/$REPO/releases/latest/download"
fi

download() {
  if command -v curl >/dev/null 2>&1; then
    curl --proto '=https,http' -fsSL "$1" -o "$2"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "neither curl nor wget is installed"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "neither sha256sum nor shasum is installed: cannot verify the download"
  fi
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT INT TERM

say "downloading $asset from $base"
download "$base/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download SHA256SUMS from $base"
download "$base/$asset" "$tmp/$asset" || die "could not download $asset from $base"

expected="$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$tmp/SHA256SUMS")"
[ -n "$expected" ] || die "SHA256SUMS has no line for $asset; nothing installed"
actual="$(sha256 "$tmp/$asset")"
[ "$expected" = "$actual" ] || die "checksum mismatch for $asset (expected $expected, got $actual); nothing installed"

mkdir "$tmp/unpacked"
tar -xzf "$tmp/$asset" -C "$tmp/unpacked"
[ -f "$tmp/unpacked/tern" ] || die "$asset holds no tern binary; nothing installed"

dir="${TERN_INSTALL_DIR:-$HOME/.local/bin}"
mkdir -p "$dir"
# Copied next to the target, then renamed: a running tern is never overwritten half-way.
cp "$tmp/unpacked/tern" "$dir/.tern.installing.$$"
chmod 755 "$dir/.tern.installing.$$"
mv -f "$dir/.tern.installing.$$" "$dir/tern"
say "installed $dir/tern"

case ":$PATH:" in
  *":$dir:"*) ;;
  *) say "$dir is not on your PATH; add it with: export PATH=\"$dir:\$PATH\" (in ~/.profile or your shell's rc file)" ;;
esac
