#!/usr/bin/env bash
# Runs the whole test suite: unit, golden-file and end-to-end tests (which run the built binary).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_dependencies
swift build --build-tests
swift test --skip-build "$@"
