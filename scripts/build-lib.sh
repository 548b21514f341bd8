# build-lib.sh: sourced by run-tests.sh and run-demo.sh (not run directly).
# shellcheck shell=bash
# Sets REPO_ROOT and BUILD_DIR (default: build, relative to the repository)
# and provides bootstrap and ensure_build.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
[[ $BUILD_DIR == /* ]] || BUILD_DIR=$REPO_ROOT/$BUILD_DIR

bootstrap() {
    bash "$REPO_ROOT/scripts/bootstrap-debian.sh"
}

# Configure BUILD_DIR if needed, then compile.  An existing build directory
# is reused: ninja re-runs meson by itself when a meson.build changed.  It is
# reconfigured only when it is unusable (half-made, or made by another meson
# version).
ensure_build() {
    if [[ ! -f $BUILD_DIR/meson-private/coredata.dat ]]; then
        meson setup "$BUILD_DIR" "$REPO_ROOT"
    elif [[ ! -f $BUILD_DIR/build.ninja ]] ||
        ! meson introspect --projectinfo "$BUILD_DIR" >/dev/null 2>&1; then
        meson setup --reconfigure "$BUILD_DIR" "$REPO_ROOT"
    fi
    meson compile -C "$BUILD_DIR"
}
