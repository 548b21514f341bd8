#!/bin/sh
# Builds fuzz-reader.c and the reader (src/reader/*.c) with clang's libFuzzer,
# ASan and UBSan, and runs it.
#
#   tests/cli/fuzz-reader.sh BUILD_DIR [SECONDS] [-- LIBFUZZER_OPTIONS...]
#
# BUILD_DIR is a configured build tree (for jankscope-config.h). The seed
# corpus is written from the synthetic reports of test_analysis.py and any
# reports under BUILD_DIR/fuzz-seeds/; the corpus grows in
# BUILD_DIR/fuzz-reader-corpus/ and crashes land in BUILD_DIR/fuzz-reader-*.
set -eu

build=$(cd "${1:?usage: fuzz-reader.sh BUILD_DIR [SECONDS]}" && pwd)
seconds=${2:-120}
shift $(( $# < 2 ? $# : 2 ))
[ "${1:-}" = "--" ] && shift

src=$(cd "$(dirname "$0")/../.." && pwd)
reader="$src/src/reader"
out="$build/fuzz-reader"
corpus="$build/fuzz-reader-corpus"

clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$build" -I"$reader" -I"$src/src/common" \
  "$src/tests/cli/fuzz-reader.c" "$reader"/*.c "$src/src/common/js-signature.c" \
  $(pkg-config --cflags --libs glib-2.0) -lm -o "$out"

mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
  python3 - "$src" "$corpus" <<'EOF'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "cli"))
os.environ.setdefault("JANKSCOPE_CLI", "/bin/false")
import test_analysis as t
a, b = t.golden_reports()
for i, r in enumerate((a, b, t.diff_report(1, 1, n_frames=300, n_busy=300),
                       t.base.make_stacks_report(), t.base.make_hang_report())):
    with open(os.path.join(sys.argv[2], "seed-%d.json" % i), "w") as f:
        json.dump(r, f)
EOF
  if [ -d "$build/fuzz-seeds" ]; then
    cp "$build"/fuzz-seeds/*.json "$corpus"/ 2>/dev/null || true
  fi
fi

cd "$build"
exec "$out" -max_total_time="$seconds" -max_len=65536 -artifact_prefix="$build/fuzz-reader-" \
  "$@" "$corpus"
