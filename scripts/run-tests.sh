#!/bin/bash
# run-tests.sh: install what is missing, build, run the test suite under Xvfb.
# Exits with meson test's status and ends with "N passed, N failed, N skipped".
# BUILD_DIR selects the build directory (default: build).
set -euo pipefail

# shellcheck source=scripts/build-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/build-lib.sh"

bootstrap
ensure_build

rm -f "$BUILD_DIR/meson-logs/testlog.json"
status=0
xvfb-run -a env GSK_RENDERER=cairo GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
    meson test -C "$BUILD_DIR" --print-errorlogs </dev/null || status=$?

print_counts "$BUILD_DIR/meson-logs/testlog.json"
exit "$status"
