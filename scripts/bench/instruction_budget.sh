#!/usr/bin/env bash
# The instruction budget of `status` (SPEC §9): callgrind counts the instructions that
# `taskwidget status --format waybar` takes on 10 000 generated tasks, in the release binary (one
# static executable), and this fails when the count is more than 5 % over the committed baseline
# (Benchmarks/baselines/status-10k.instructions): SPEC §9 keeps `status` within 5 % whatever serve,
# sync and reminders add (issue 18 asked for 10 %, which a 5 % limit also keeps). Instruction counts
# do not depend on the machine's load, and with a fixed hash seed one count repeats to about 100
# instructions, so this is no timed test and 5 % is far above its noise. scripts/test.sh runs it
# after the tests.
#
#   scripts/bench/instruction_budget.sh            check against the baseline
#   scripts/bench/instruction_budget.sh --record   write the count measured now as the baseline
#
# Work files go to ${BUDGET_DIR:-/tmp/taskwidget-budget}.
set -euo pipefail
cd "$(dirname "$0")/../.."
baseline_file=Benchmarks/baselines/status-10k.instructions
allowed_growth_percent=5
work=${BUDGET_DIR:-/tmp/taskwidget-budget}
now=2026-11-22T12:00:00Z

command -v valgrind >/dev/null || { echo "instruction budget: valgrind is missing: run scripts/test.sh, which installs it" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
echo "Instruction budget: building the static release taskwidget…" >&2
source scripts/lib/release_build.sh
build_release taskwidget >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; exit 1; }
if readelf -l .build/release/taskwidget | grep -q INTERP; then
  echo "instruction budget: the release taskwidget loads shared libraries, yet Package.swift links it as one static executable: install libsqlite3-dev and libstdc++-12-dev, whose static libraries that link takes" >&2
  exit 1
fi
strip -o "$work/taskwidget" .build/release/taskwidget
python3 scripts/bench/generate_tasks.py 10000 "$now" "$work"
"$work/taskwidget" import "$work/taskwidget-10000.json" --store "$work/tasks.sqlite" >/dev/null

# A fixed environment: the count depends (a little) on what the process reads of it. A fixed hash
# seed too: with a random one per process, Set and Dictionary probe differently and one count moves
# by ±30 k (0.1 %) from run to run; with this one, by about 100 instructions.
measured=$(env -i PATH=/usr/bin:/bin TZ=UTC HOME="$work" XDG_CONFIG_HOME="$work/config" SWIFT_DETERMINISTIC_HASHING=1 \
  bash -c 'source scripts/lib/callgrind.sh && callgrind_instructions "$@"' budget "$work" \
  "$work/taskwidget" status --format waybar --store "$work/tasks.sqlite" --now "$now")

if [ "${1:-}" = --record ]; then
  mkdir -p "$(dirname "$baseline_file")"
  echo "$measured" >"$baseline_file"
  echo "instruction budget: recorded $measured instructions as the baseline in $baseline_file"
  exit 0
fi
baseline=$(cat "$baseline_file")
limit=$((baseline + baseline * allowed_growth_percent / 100))
change=$(python3 -c "print('%+.1f %%' % (($measured - $baseline) * 100 / $baseline))")
if [ "$measured" -gt "$limit" ]; then
  echo "instruction budget: status at 10k took $measured instructions, $change over the baseline of $baseline (at most +$allowed_growth_percent %): find what the hot path does that it did not, or record a new baseline with --record and say why in the commit" >&2
  exit 1
fi
echo "instruction budget: status at 10k took $measured instructions ($change against the baseline of $baseline; at most +$allowed_growth_percent %)"
