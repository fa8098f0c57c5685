#!/usr/bin/env bash
# Step 4 of the tern action: post $RUNNER_TEMP/tern-comment.md on the issue or pull request NUMBER with
# GITHUB_TOKEN (the REST API at $GITHUB_API_URL). The body holds tern's answer and a diff summary only.
set -euo pipefail

: "${NUMBER:?no issue or pull request to comment on}"
api="${GITHUB_API_URL:-https://api.github.com}"
jq -n --rawfile body "$RUNNER_TEMP/tern-comment.md" '{body: $body}' |
  curl -fsS -X POST \
    -H "Authorization: Bearer $GITHUB_TOKEN" \
    -H "Accept: application/vnd.github+json" \
    --data @- \
    "$api/repos/$GITHUB_REPOSITORY/issues/$NUMBER/comments" >/dev/null
echo "posted tern's answer on #$NUMBER"
