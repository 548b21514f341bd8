#!/bin/bash
# run-sanitized-tests.sh: install what is missing, build jankscope with
# AddressSanitizer and UndefinedBehaviorSanitizer in a build directory of its
# own and run the test suite there under Xvfb. Exits non-zero when a test
# fails and ends with "N passed, N failed, N skipped".
# SANITIZED_BUILD_DIR selects the build directory (default: build-asan); not
# BUILD_DIR, which names the normal build (.ci/run exports it).
#
# - UBSan is fatal: built with -fno-sanitize-recover=undefined (b_sanitize
#   does not add it), run with halt_on_error=1.
# - The preload, the core and the modules are sanitized shared objects that
#   the checks load with LD_PRELOAD into the test programs (built here, so
#   libasan is already their dependency) and into programs built elsewhere
#   (sh, true): either way libasan comes after the LD_PRELOAD objects in the
#   list of loaded objects, which ASan refuses unless verify_asan_link_order=0.
#   That is sound here: the preload defines GLib's functions, none that ASan
#   intercepts.
# - LeakSanitizer checks the unit tests and the CLI (suites unit and cli):
#   these programs free what they allocate or keep it reachable. It is off
#   for the programs jankscope is loaded into: the core lives as long as its
#   host and keeps its memory to the end, and a leak check at exit misreads
#   it (in a forked child, what only the parent's threads pointed to looks
#   leaked; a thread the test stops with ptrace makes the check give up).
#   tests/lsan-suppressions.txt lists what LSan misreads in the CLI's runs.
# - Checks that cannot hold under ASan skip themselves there only, saying
#   why (JANKSCOPE_TEST_SANITIZED=1, tests/jankscope_test.py). The demo's own
#   tests (suite demo) do not load jankscope and are left out.
# Your own ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS are added last (they
# win), e.g. ASAN_OPTIONS=fast_unwind_on_malloc=0 for full allocation stacks.
set -euo pipefail

BUILD_DIR=${SANITIZED_BUILD_DIR:-build-asan}
# shellcheck source=scripts/build-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/build-lib.sh"

bootstrap
flags="-fno-sanitize-recover=undefined -fno-omit-frame-pointer"
ensure_build -Db_sanitize=address,undefined "-Dc_args=$flags" "-Dcpp_args=$flags"

# LeakSanitizer stops the process's threads with ptrace at exit; where
# ptrace is not allowed (some containers) it fails every program: check once.
leaks=1
if ASAN_OPTIONS=detect_leaks=1 "$BUILD_DIR/src/cli/jankscope" --version 2>&1 >/dev/null |
    grep -q 'LeakSanitizer has encountered a fatal error'; then
    echo "run-sanitized-tests: LeakSanitizer cannot run here (no ptrace): no leak checks"
    leaks=0
fi

export JANKSCOPE_TEST_SANITIZED=1
# GLib 2.74's slice allocator would hide its blocks from ASan.
export G_SLICE=always-malloc
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$REPO_ROOT/tests/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
user_asan=${ASAN_OPTIONS:+:$ASAN_OPTIONS}

status=0
# run_suites DETECT_LEAKS LOGBASE MESON_TEST_ARGS...
run_suites() {
    local detect_leaks=$1 logbase=$2
    shift 2
    rm -f "$BUILD_DIR/meson-logs/$logbase.json"
    ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=$detect_leaks$user_asan" \
        xvfb-run -a env GSK_RENDERER=cairo GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
        meson test -C "$BUILD_DIR" --print-errorlogs --logbase "$logbase" "$@" </dev/null ||
        status=$?
}

run_suites "$leaks" sanitized-leaks --suite unit --suite cli
run_suites 0 sanitized --no-suite unit --no-suite cli --no-suite demo

print_counts "$BUILD_DIR/meson-logs/sanitized-leaks.json" "$BUILD_DIR/meson-logs/sanitized.json"
exit "$status"
