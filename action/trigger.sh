#!/usr/bin/env bash
# Step 1 of the tern action: should this event run tern, and with which prompt?
# An explicit INPUT_PROMPT always runs. Otherwise the triggering comment, issue or pull request must mention
# INPUT_TRIGGER (default @tern) and its author's association must be one of INPUT_ALLOWED (default OWNER,
# MEMBER, COLLABORATOR): a comment from anyone else never runs tern. Writes run=true|false and number= to
# $GITHUB_OUTPUT and the prompt to $RUNNER_TEMP/tern-prompt.txt.
set -euo pipefail

trigger="${INPUT_TRIGGER:-@tern}"
allowed="${INPUT_ALLOWED:-OWNER,MEMBER,COLLABORATOR}"
event="${GITHUB_EVENT_PATH:-/dev/null}"
prompt_file="$RUNNER_TEMP/tern-prompt.txt"

skip() {
  echo "::notice title=tern::not running: $*"
  echo "run=false" >>"$GITHUB_OUTPUT"
  exit 0
}

# The issue or pull request the answer goes to, if any.
number="$(jq -r '(.issue.number // .pull_request.number // empty)' "$event" 2>/dev/null || true)"
echo "number=${number}" >>"$GITHUB_OUTPUT"

if [ -n "${INPUT_PROMPT:-}" ]; then
  printf '%s\n' "$INPUT_PROMPT" >"$prompt_file"
  echo "run=true" >>"$GITHUB_OUTPUT"
  exit 0
fi

case "${GITHUB_EVENT_NAME:-}" in
  issue_comment | pull_request_review_comment)
    text="$(jq -r '.comment.body // ""' "$event")"
    who="$(jq -r '.comment.author_association // "NONE"' "$event")"
    ;;
  issues)
    text="$(jq -r '.issue.body // ""' "$event")"
    who="$(jq -r '.issue.author_association // "NONE"' "$event")"
    ;;
  pull_request | pull_request_target)
    text="$(jq -r '.pull_request.body // ""' "$event")"
    who="$(jq -r '.pull_request.author_association // "NONE"' "$event")"
    ;;
  *)
    skip "event ${GITHUB_EVENT_NAME:-unknown} carries no prompt; set the prompt input"
    ;;
esac

case "$text" in
  *"$trigger"*) ;;
  *) skip "no $trigger mention" ;;
esac
case ",$allowed," in
  *",$who,"*) ;;
  *) skip "the author's association is $who; only $allowed can run tern (input allowed-associations)" ;;
esac

title="$(jq -r '(.issue.title // .pull_request.title // "")' "$event")"
{
  if [ -n "$number" ]; then printf 'GitHub #%s: %s\n\n' "$number" "$title"; fi
  printf '%s\n' "${text//"$trigger"/}"
} >"$prompt_file"
echo "run=true" >>"$GITHUB_OUTPUT"
