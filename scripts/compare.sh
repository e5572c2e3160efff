#!/usr/bin/env bash
# Measures SPEC §9's whole-process targets in one run, on the same generated tasks (1k, 10k, 100k):
# `taskwidget status --format waybar` against Taskwarrior 2.6's `task +OVERDUE count`, and
# `taskwidget timeline --format json` at 100k. Prints one table of medians and ratios.
# Installs hyperfine and taskwarrior when missing. Work files go to ${COMPARE_DIR:-/tmp/taskwidget-compare}.
# Not yet measured here (issue 7): the render ratios against a C Cairo + Pango program.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
TASKWIDGET_PACKAGES+=(hyperfine taskwarrior)
ensure_dependencies
swift build -c release >/dev/null
taskwidget=$PWD/.build/release/taskwidget
work=${COMPARE_DIR:-/tmp/taskwidget-compare}
now=2026-11-22T12:00:00Z
sizes=(1000 10000 100000)
rm -rf "$work" && mkdir -p "$work"
export TZ=UTC

median() {  # median seconds of a hyperfine JSON export, in milliseconds
  python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$1"
}

for size in "${sizes[@]}"; do
  echo "Preparing $size tasks…" >&2
  python3 scripts/bench/generate_tasks.py "$size" "$now" "$work"
  "$taskwidget" import "$work/taskwidget-$size.json" --store "$work/tasks-$size.sqlite" >/dev/null
  mkdir -p "$work/taskwarrior-$size"
  printf 'data.location=%s\nconfirmation=off\nverbose=nothing\ngc=on\n' "$work/taskwarrior-$size" > "$work/taskrc-$size"
  TASKRC="$work/taskrc-$size" task import "$work/taskwarrior-$size.json" >/dev/null 2>&1
  TASKRC="$work/taskrc-$size" task +OVERDUE count >/dev/null  # its first run moves completed tasks aside
  hyperfine -N --warmup 5 --runs 40 --export-json "$work/status-$size.json" \
    "$taskwidget status --format waybar --store $work/tasks-$size.sqlite --now $now" >/dev/null
  hyperfine -N --warmup 2 --runs 10 --export-json "$work/taskwarrior-$size-time.json" \
    "env TASKRC=$work/taskrc-$size task +OVERDUE count" >/dev/null
done
hyperfine -N --warmup 3 --runs 20 --export-json "$work/timeline-100000.json" \
  "$taskwidget timeline --format json --store $work/tasks-100000.sqlite --now $now" >/dev/null

status_1k=$(median "$work/status-1000.json")
printf '\n| measure | median | target | Taskwarrior (task +OVERDUE count) |\n|---|---|---|---|\n'
for size in "${sizes[@]}"; do
  ours=$(median "$work/status-$size.json")
  theirs=$(median "$work/taskwarrior-$size-time.json")
  ratio=$(python3 -c "print('%.1f' % ($theirs / $ours))")
  target=""
  [ "$size" = 10000 ] && target="≤ 10 ms, ≥ 20× faster"
  printf '| status --format waybar, %s tasks | %s ms | %s | %s ms, %s× our time |\n' "$size" "$ours" "$target" "$theirs" "$ratio"
done
printf '| status at 100k / status at 1k | | ≤ 1.5× | %s |\n' "$(python3 -c "print('%.2f×' % ($(median "$work/status-100000.json") / $status_1k))")"
printf '| timeline --format json, 100000 tasks | %s ms | ≤ 100 ms | |\n' "$(median "$work/timeline-100000.json")"
