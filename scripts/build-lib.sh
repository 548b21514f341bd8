# build-lib.sh: sourced by run-tests.sh, run-sanitized-tests.sh and
# run-demo.sh (not run directly).
# shellcheck shell=bash
# Sets REPO_ROOT and BUILD_DIR (default: build, relative to the repository)
# and provides bootstrap, ensure_build and print_counts.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
[[ $BUILD_DIR == /* ]] || BUILD_DIR=$REPO_ROOT/$BUILD_DIR

bootstrap() {
    bash "$REPO_ROOT/scripts/bootstrap-debian.sh"
}

# Configure BUILD_DIR if needed, then compile.  An existing build directory
# is reused: ninja re-runs meson by itself when a meson.build changed.  It is
# reconfigured only when it is unusable (half-made, or made by another meson
# version).  Arguments are meson options (-Dname=value): given at set-up, and
# applied to an existing directory with `meson configure`.
# shellcheck disable=SC2120 # the arguments are optional
ensure_build() {
    if [[ ! -f $BUILD_DIR/meson-private/coredata.dat ]]; then
        meson setup "$@" "$BUILD_DIR" "$REPO_ROOT"
    elif [[ ! -f $BUILD_DIR/build.ninja ]] ||
        ! meson introspect --projectinfo "$BUILD_DIR" >/dev/null 2>&1; then
        meson setup --reconfigure "$@" "$BUILD_DIR" "$REPO_ROOT"
    elif [[ $# -gt 0 ]]; then
        meson configure "$BUILD_DIR" "$@"
    fi
    meson compile -C "$BUILD_DIR"
}

# Print "N passed, N failed, N skipped" for the meson test logs (JSON lines,
# meson-logs/*.json) given as arguments; a missing log counts nothing.
print_counts() {
    python3 - "$@" <<'PY'
import json, sys

counts = {"passed": 0, "failed": 0, "skipped": 0}
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as log:
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
}
