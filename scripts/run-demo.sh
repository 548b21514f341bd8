#!/bin/bash
# run-demo.sh: install what is missing, build, and run the playground demo
# under `jankscope run`; the report goes to ./jankscope-report.json and its
# summary is printed when the demo exits; the jankscope window (--inspector)
# shows the stalls live.  Arguments go to the demo.
#
# Without a display ($DISPLAY and $WAYLAND_DISPLAY unset) the demo runs under
# Xvfb and, unless arguments are given, plays a script of stalls and quits.
# BUILD_DIR selects the build directory (default: build).
set -euo pipefail

# shellcheck source=scripts/build-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/build-lib.sh"

bootstrap
ensure_build

cli=$BUILD_DIR/src/cli/jankscope
demo=$BUILD_DIR/demo/jankscope-playground
for f in "$cli" "$demo"; do
    if [[ ! -x $f ]]; then
        echo "run-demo: $f was not built" >&2
        exit 1
    fi
done

run=("$cli" run --inspector --report jankscope-report.json -- "$demo")
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
    echo "run-demo: no display: running under Xvfb"
    if [[ $# -eq 0 ]]; then
        set -- --script=cpu,sleep,slow-idle,small-stalls,slow-paint,quit
    fi
    exec xvfb-run -a env GSK_RENDERER=cairo GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
        "${run[@]}" "$@"
fi
exec "${run[@]}" "$@"
