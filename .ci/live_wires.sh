#!/usr/bin/env bash
# The released tern against real models, one read-edit-run task per wire whose key is set:
# chat (DEEPSEEK_API_KEY), responses (OPENAI_API_KEY), anthropic (ANTHROPIC_API_KEY). Each must change
# count.txt from 1 to 2 and run a command; a wire without its key is skipped, and says so.
set -euo pipefail

wires=("deepseek DEEPSEEK_API_KEY chat" "openai OPENAI_API_KEY responses" "anthropic ANTHROPIC_API_KEY anthropic")
have=0
for wire in "${wires[@]}"; do
  read -r _ var _ <<<"$wire"
  [ -n "${!var:-}" ] && have=1
done
if [ "$have" = 0 ]; then
  echo "::notice title=live models::skipped: no provider key secret (DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY); forks and local runs have none"
  exit 0
fi

bin="${RUNNER_TEMP:-$(mktemp -d)}/tern-bin"
TERN_DOWNLOAD_BASE="https://github.com/${GITHUB_REPOSITORY:?}/releases/latest/download" TERN_INSTALL_DIR="$bin" \
  sh install.sh
failed=0
for wire in "${wires[@]}"; do
  read -r provider var api <<<"$wire"
  if [ -z "${!var:-}" ]; then
    echo "::notice title=live models::$api wire skipped: no $var secret"
    continue
  fi
  project="$(mktemp -d)"
  printf '1\n' >"$project/count.txt"
  echo "--- $api wire ($provider)"
  result="$(cd "$project" && "$bin/tern" -p "Read count.txt, change the number in it from 1 to 2 with edit_file, then run the command 'cat count.txt' and tell me what it printed." \
    --provider "$provider" --approve all --sandbox auto --max-turns 12 --output json)" || true
  echo "$result" | jq -c '{exit_reason, turns, tool_calls, usage: {total_tokens: .usage.total_tokens}}' || echo "$result"
  if [ "$(cat "$project/count.txt")" = 2 ] && jq -e '.exit_reason == "done" and .tool_calls >= 3' >/dev/null <<<"$result"; then
    echo "$api wire: count.txt changed and the command ran"
  else
    echo "::error title=live models::$api wire: the file did not change as asked"
    failed=1
  fi
done
exit "$failed"
