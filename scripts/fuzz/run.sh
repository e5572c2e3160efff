#!/usr/bin/env bash
# Fuzzes taskwidget with libFuzzer, on demand (not part of scripts/test.sh):
#   import  any bytes as an `import` file   (FuzzImport)
#   when    any text as WHEN and --now      (FuzzWhen)
# Both check FuzzOracle (Tests/TaskWidgetKitTests/Properties/FuzzOracle.swift), as the bounded
# FuzzTests of the suite do.
#
# Usage: scripts/fuzz/run.sh [import|when|all] [SECONDS]     default: all, 60 seconds per target
#
# Builds this package in release with -sanitize=fuzzer on first use (a few minutes), starts from the
# committed seed corpus (corpus/TARGET), keeps what it learns in .build/fuzz-corpus/TARGET (not
# committed), and on a problem stops with a nonzero status, leaving the input that shows it in
# .build/fuzz-artifacts/ (reproduce: .build/release/FuzzImport .build/fuzz-artifacts/import-crash-…).
set -euo pipefail
cd "$(dirname "$0")"
source ../lib/dependencies.sh
TASKWIDGET_PACKAGES+=("${TASKWIDGET_TEST_PACKAGES[@]}")
ensure_dependencies

which=${1:-all}
seconds=${2:-60}
case "$which" in
    import) targets=(import) ;;
    when) targets=(when) ;;
    all) targets=(import when) ;;
    *) echo "usage: $0 [import|when|all] [SECONDS]" >&2; exit 64 ;;
esac

product() { case "$1" in import) echo FuzzImport ;; when) echo FuzzWhen ;; esac; }

for target in "${targets[@]}"; do
    swift build -c release --sanitize=fuzzer --product "$(product "$target")" >&2
done

mkdir -p .build/fuzz-artifacts
for target in "${targets[@]}"; do
    mkdir -p ".build/fuzz-corpus/$target"
    log=".build/fuzz-$target.log"
    dictionary=()
    [ -f "$target.dict" ] && dictionary=(-dict="$target.dict")
    echo "== fuzzing $target for $seconds s" >&2
    status=0
    ".build/release/$(product "$target")" "${dictionary[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix=".build/fuzz-artifacts/$target-" \
        ".build/fuzz-corpus/$target" "corpus/$target" >"$log" 2>&1 || status=$?
    grep -E '^Done|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" >&2 || true
    if [ "$status" -ne 0 ]; then
        grep -E 'Fatal error|ERROR: libFuzzer|Test unit written' "$log" >&2 || tail -20 "$log" >&2
        echo "fuzz $target: FAILED (log: scripts/fuzz/$log)" >&2
        exit "$status"
    fi
    echo "fuzz $target: no problem found (log: scripts/fuzz/$log)" >&2
done
