#!/usr/bin/env bash
# Runs the whole test suite: unit, golden-file and end-to-end tests (which run the built binary).
# The benchmarks (Benchmarks/) are built, so that they keep compiling, but not run. A whole run
# (no arguments) then checks `status`'s instruction budget (scripts/bench/instruction_budget.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/swiftpm.sh
TASKWIDGET_PACKAGES+=("${TASKWIDGET_TEST_PACKAGES[@]}")
ensure_dependencies
swift build --build-tests
swift build --package-path Benchmarks
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
  scripts/bench/instruction_budget.sh
fi
