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

python3 - "$BUILD_DIR/meson-logs/testlog.json" <<'PY'
import json, sys

counts = {"passed": 0, "failed": 0, "skipped": 0}
try:
    with open(sys.argv[1], encoding="utf-8") as log:
        for line in log:
            if not line.strip():
                continue
            result = json.loads(line).get("result", "")
            if result in ("OK", "EXPECTEDFAIL"):
                counts["passed"] += 1
            elif result == "SKIP":
                counts["skipped"] += 1
            else:  # FAIL, UNEXPECTEDPASS, TIMEOUT, ERROR, INTERRUPT, ...
                counts["failed"] += 1
except FileNotFoundError:
    pass
print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
PY
exit "$status"
