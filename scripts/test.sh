#!/usr/bin/env bash
# Runs the whole test suite: unit, golden-file and end-to-end tests (which run the built binary).
# A whole run (no arguments) then builds the benchmarks (Benchmarks/), so that they keep
# compiling, without running them, and checks `status`'s instruction budget
# (scripts/bench/instruction_budget.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/swiftpm.sh
TASKWIDGET_PACKAGES+=("${TASKWIDGET_TEST_PACKAGES[@]}")
ensure_dependencies
swift build --build-tests
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
  # In this package's build folder, where taskwidget's modules and their dependencies are built
  # already: in a folder of its own, the benchmarks built them all again (143 s of a CI run, 35 s
  # here). After the tests, which it cannot change then.
  swift build --package-path Benchmarks --scratch-path .build
  scripts/bench/instruction_budget.sh
fi
