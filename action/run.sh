#!/usr/bin/env bash
# Step 3 of the tern action: run `tern -p` on the prompt with the inputs' approval mode, sandbox and caps,
# the key from the secret in TERN_API_KEY (tern hands it to no command). Events go to
# $RUNNER_TEMP/tern-events.jsonl; the final one becomes the `result` output; the answer and a summary of the
# diff become $RUNNER_TEMP/tern-comment.md. The key is blanked out of every file and output this writes,
# should it appear anywhere (the model may have been told it): in the events, so the result too.
set -uo pipefail

: "${TERN_API_KEY:?the api-key input is empty: pass a secret, e.g. api-key: \${{ secrets.DEEPSEEK_API_KEY }}}"
echo "::add-mask::$TERN_API_KEY"
events="$RUNNER_TEMP/tern-events.jsonl"
args=(-p "$(cat "$RUNNER_TEMP/tern-prompt.txt")" --output stream-json
  --approve "${INPUT_APPROVE:-edits}" --sandbox "${INPUT_SANDBOX:-required}")
[ -n "${INPUT_MAX_TURNS:-}" ] && args+=(--max-turns "$INPUT_MAX_TURNS")
[ -n "${INPUT_TIME_LIMIT:-}" ] && args+=(--time-limit "$INPUT_TIME_LIMIT")
[ -n "${INPUT_PROVIDER:-}" ] && args+=(--provider "$INPUT_PROVIDER")
[ -n "${INPUT_MODEL:-}" ] && args+=(--model "$INPUT_MODEL")
[ -n "${INPUT_BASE_URL:-}" ] && args+=(--base-url "$INPUT_BASE_URL")
[ -n "${INPUT_API:-}" ] && args+=(--api "$INPUT_API")

# Every occurrence of the key, literal (as it would sit in a JSON string too), becomes [redacted]; awk reads the
# key from the environment, so no character of it is taken as a pattern or an escape.
redact() {
  awk '{
    key = ENVIRON["TERN_API_KEY"]; out = ""
    while ((i = index($0, key)) > 0) { out = out substr($0, 1, i - 1) "[redacted]"; $0 = substr($0, i + length(key)) }
    print out $0
  }'
}

# A key the model wrote arrives in pieces (text_delta events): consecutive pieces are joined into one event
# first, so the whole key is there to blank. The raw stream never stays on disk.
tern "${args[@]}" >"$events.raw"
code=$?
merge='reduce inputs as $e ([]; if ($e.type == "text_delta" or $e.type == "reasoning_delta")
  and length > 0 and .[-1].type == $e.type then .[-1].text += $e.text else . + [$e] end) | .[]'
jq -cn "$merge" <"$events.raw" >"$events.joined" 2>/dev/null || cp "$events.raw" "$events.joined"
redact <"$events.joined" >"$events"
rm -f "$events.raw" "$events.joined"
result="$(tail -n 1 "$events")"
if ! jq -e '.type == "result"' >/dev/null 2>&1 <<<"$result"; then
  result="$(jq -cn --arg code "$code" '{v: 1, type: "result", exit_reason: "error", error: ("tern exited " + $code + " without a result")}')"
fi
delimiter="tern_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
{
  echo "result<<$delimiter"
  echo "$result"
  echo "$delimiter"
  echo "exit-code=$code"
} | redact >>"$GITHUB_OUTPUT"

answer="$(jq -r '.text // .error // ""' <<<"$result")"
reason="$(jq -r '.exit_reason // "error"' <<<"$result")"
diff="$(git diff --stat 2>/dev/null | tail -n 20)"
{
  echo "**tern** ($reason)"
  echo
  echo "$answer"
  if [ -n "$diff" ]; then
    echo
    echo "<details><summary>Changed files (not committed)</summary>"
    echo
    echo '```'
    echo "$diff"
    echo '```'
    echo "</details>"
  fi
} >"$RUNNER_TEMP/tern-comment.md"
# Belt and braces: the key never reaches a comment, whatever the model wrote (git diff --stat included).
redact <"$RUNNER_TEMP/tern-comment.md" >"$RUNNER_TEMP/tern-comment.md.tmp"
mv "$RUNNER_TEMP/tern-comment.md.tmp" "$RUNNER_TEMP/tern-comment.md"
exit "$code"
