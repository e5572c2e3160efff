#!/usr/bin/env bash
# Reliability checks at the scale of issue 8, which take minutes: the test suite runs smaller
# versions of the first two (ConcurrencyTests) and simulates the third with a file size limit
# (FullDiskTests).
#
#   scripts/reliability/run.sh [load] [kills] [disk]     (all three when none is named)
#
#   load   8 writers × 200 add/done/edit while 4 status loops (every format) and a watch run:
#          every acknowledged write present, integrity ok, every status and watch line valid.
#   kills  200 writers (add, done, edit, 300-task imports) SIGKILLed at random moments:
#          integrity ok, no acknowledged write lost, no import in part.
#   disk   a real full disk, a 512 KiB tmpfs in a private mount namespace (unshare): writes fail
#          with one line and exit 74 and leave the store as it was, reads still work, an export
#          to the full disk is an error, and after space is freed the store takes writes again.
#
# The load and kills print their seed; TASKWIDGET_SEED=N replays a run's choices.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/dependencies.sh
TASKWIDGET_PACKAGES+=("${TASKWIDGET_TEST_PACKAGES[@]}")
ensure_dependencies

checks=("$@")
[ ${#checks[@]} -eq 0 ] && checks=(load kills disk)
swift build --build-tests
binary=$(swift build --show-bin-path)/taskwidget
failed=0

for check in "${checks[@]}"; do
  case "$check" in
  load)
    echo "== load: 8 writers × 200, 4 status loops, 1 watch"
    TASKWIDGET_LOAD=full swift test --skip-build --filter 'ConcurrencyTests/writersStatusLoopsAndAWatchUnderLoad' 2>&1 |
      grep -E '^load |✘|passed after|failed after' || failed=1
    ;;
  kills)
    echo "== kills: 200 writers SIGKILLed at random moments"
    TASKWIDGET_KILLS=200 swift test --skip-build --filter 'ConcurrencyTests/killedWritersLoseNoAcknowledgedWrite' 2>&1 |
      grep -E '^kills |✘|passed after|failed after' || failed=1
    ;;
  disk)
    echo "== disk: a full 512 KiB tmpfs"
    work=$(mktemp -d /tmp/taskwidget-disk-XXXXXX)
    python3 - "$work/big.json" <<'PY'
import json, sys, uuid
tasks = [{"id": str(uuid.UUID(int=0x0B16_0000_0000_4000_8000_0000_0000_0000 + i)).upper(), "title": f"Imported task {i} " + "x" * 80,
          "isCompleted": False, "state": "notStarted", "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z",
          "sortOrder": i} for i in range(2000)]
json.dump({"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": tasks}, open(sys.argv[1], "w"))
PY
    namespace=(unshare --mount)
    [ "$(id -u)" -ne 0 ] && namespace=(unshare --map-root-user --mount)
    if ! "${namespace[@]}" true 2>/dev/null; then
      echo "skipped: no private mount namespace here (unshare failed); FullDiskTests covers this with RLIMIT_FSIZE"
    elif ! "${namespace[@]}" bash -s "$binary" "$work" <<'DISK'; then failed=1; fi
set -u
binary=$1; work=$2; disk=$work/disk; store=$disk/tasks.sqlite
export TZ=Europe/Berlin
run() { "$binary" "$@" --store "$store" --now 2026-11-22T16:27:00+01:00; }
integrity() {
  python3 -c "import sqlite3, sys; print(sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True).execute('PRAGMA integrity_check').fetchone()[0])" "$store"
}
problems=0
problem() { echo "PROBLEM: $*"; problems=$((problems + 1)); }
mkdir "$disk" && mount -t tmpfs -o size=512k tmpfs "$disk" || { echo "cannot mount a tmpfs"; exit 1; }
run demo >/dev/null && for i in 1 2 3 4 5; do run add "Task $i" >/dev/null; done
dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
echo "filled: $(df -k "$disk" | awk 'NR == 2 { print $4 }') KiB free"
before=$(run export | sha256sum)
for command in "add Small" "list add Garden" "habit check Meditate" "import $work/big.json" "done $(run ls --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["shortId"])')"; do
  output=$(run $command 2>"$work/stderr"); status=$?
  after=$(run export | sha256sum)
  if [ $status -eq 0 ]; then
    echo "$command → exit 0 (it fitted in space the store already had)"
    before=$after
    continue
  fi
  echo "$command → exit $status: $(cat "$work/stderr")$([ "$after" = "$before" ] && echo " (store unchanged)")"
  [ $status -eq 74 ] || problem "exit $status"
  [ "$(wc -l < "$work/stderr")" -eq 1 ] || problem "not one line"
  [ -z "$output" ] || problem "printed $output"
  [ "$after" = "$before" ] || problem "the store changed"
done
for command in "status --format waybar" "ls" "timeline" "export"; do
  run $command >/dev/null 2>"$work/stderr" && echo "$command → exit 0 on the full disk" || problem "$command failed: $(cat "$work/stderr")"
done
run export > "$disk/backup.json" 2>"$work/stderr"; status=$?
echo "export > full disk → exit $status: $(cat "$work/stderr")"
[ $status -eq 74 ] || problem "export to a full disk exited $status"
[ "$(integrity)" = ok ] && echo "integrity: ok" || problem "integrity: $(integrity)"
rm -f "$disk/filler" "$disk/backup.json"
run add "After freeing space" >/dev/null && echo "after freeing space: add → exit 0" || problem "add after freeing space failed"
[ "$(integrity)" = ok ] || problem "integrity after freeing space"
umount "$disk"
echo "disk: $problems problems"
[ $problems -eq 0 ]
DISK
    rm -rf "$work"
    ;;
  *)
    echo "unknown check $check: use load, kills or disk" >&2
    exit 64
    ;;
  esac
done
exit $failed
