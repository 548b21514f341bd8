#!/bin/sh
# split-debug.sh MODULE OUTDIR STAMP
#
# Splits MODULE (built with -g) the ways distributions ship debug
# information, into OUTDIR (made afresh), then touches STAMP:
#
#   stripped/NAME                      stripped, nothing else (the control)
#   build-id/NAME                      stripped; its debug file is
#   build-id-root/.build-id/xx/rest.debug  in a debug root (JANKSCOPE_DEBUG_DIRS)
#   debuglink/NAME, debuglink/NAME.debug       .gnu_debuglink, the file beside it
#   debuglink-dot/NAME, debuglink-dot/.debug/NAME.debug   ... in .debug/ beside it
#   debuglink-root-module/NAME         ... under a debug root with the module's
#   debuglink-root/<OUTDIR>/debuglink-root-module/NAME.debug   directory appended
#   minidebuginfo/NAME                 stripped, with .gnu_debugdata (Fedora's
#                                      MiniDebugInfo: an xz-compressed ELF whose
#                                      .symtab holds the functions .dynsym lacks)
#   debuginfod/NAME.debug              the debug file alone, for a debuginfod
#                                      server (debuginfod -F debuginfod/)
#   build-id.txt                       the build-id, in hex
#
# The MiniDebugInfo is made as Fedora's find-debuginfo does it: nm, comm,
# objcopy --keep-symbols, xz, objcopy --add-section.
set -eu

# Absolute: the script works in OUTDIR.
module=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
stamp=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
name=$(basename "$module")

rm -rf "$out"
mkdir -p "$out"
cd "$out"
out=$(pwd)

id=$(readelf -n "$module" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
if [ -z "$id" ]; then
    echo "split-debug.sh: $module has no build-id" >&2
    exit 1
fi
printf '%s\n' "$id" > build-id.txt
head=$(printf '%s' "$id" | cut -c1-2)
rest=$(printf '%s' "$id" | cut -c3-)

objcopy --only-keep-debug "$module" full.debug
strip --strip-all -o stripped.tmp "$module"

mkdir stripped
cp stripped.tmp stripped/"$name"

mkdir -p build-id build-id-root/.build-id/"$head"
cp stripped.tmp build-id/"$name"
cp full.debug build-id-root/.build-id/"$head"/"$rest".debug

mkdir debuglink
cp full.debug debuglink/"$name".debug
objcopy --add-gnu-debuglink=debuglink/"$name".debug stripped.tmp debuglink/"$name"

mkdir -p debuglink-dot/.debug
cp full.debug debuglink-dot/.debug/"$name".debug
objcopy --add-gnu-debuglink=debuglink-dot/.debug/"$name".debug stripped.tmp debuglink-dot/"$name"

mkdir -p debuglink-root-module debuglink-root/"$out"/debuglink-root-module
cp full.debug debuglink-root/"$out"/debuglink-root-module/"$name".debug
objcopy --add-gnu-debuglink=debuglink-root/"$out"/debuglink-root-module/"$name".debug \
    stripped.tmp debuglink-root-module/"$name"

nm -D "$module" --format=posix --defined-only | awk '{ print $1 }' | sort > dynsyms
nm full.debug --format=posix --defined-only \
    | awk '{ if ($2 == "T" || $2 == "t" || $2 == "D") print $1 }' | sort > funcsyms
comm -13 dynsyms funcsyms > keep-symbols
objcopy -S --remove-section .gdb_index --remove-section .comment \
    --keep-symbols=keep-symbols full.debug mini.debug
xz -f mini.debug
mkdir minidebuginfo
objcopy --add-section .gnu_debugdata=mini.debug.xz stripped.tmp minidebuginfo/"$name"

mkdir debuginfod
cp full.debug debuginfod/"$name".debug

rm -f stripped.tmp dynsyms funcsyms keep-symbols mini.debug.xz full.debug
touch "$stamp"
