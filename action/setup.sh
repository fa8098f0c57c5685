#!/usr/bin/env bash
# Step 2 of the tern action: install the released binary with install.sh (its SHA-256 checked against the
# release's SHA256SUMS; nothing is installed on a mismatch) into $RUNNER_TEMP/tern-bin, and put it on PATH.
# INPUT_VERSION pins a release tag (default: the latest); INPUT_DOWNLOAD_BASE serves the assets from
# elsewhere (a mirror, or the end-to-end workflow's local copy of a release).
set -euo pipefail

repository="${INPUT_REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-}}"
repository="${repository:-$GITHUB_REPOSITORY}"
version="${INPUT_VERSION:-latest}"
if [ -n "${INPUT_DOWNLOAD_BASE:-}" ]; then
  base="$INPUT_DOWNLOAD_BASE"
elif [ "$version" = "latest" ]; then
  base="https://github.com/$repository/releases/latest/download"
else
  base="https://github.com/$repository/releases/download/$version"
fi
dir="$RUNNER_TEMP/tern-bin"
mkdir -p "$dir"
TERN_DOWNLOAD_BASE="$base" TERN_INSTALL_DIR="$dir" sh "$(dirname "$0")/../install.sh"
echo "$dir" >>"$GITHUB_PATH"
"$dir/tern" --version
