#!/usr/bin/env python3
"""Runs debuginfo-cost on copies of real libraries: what the first lookup in
a module costs with only .dynsym, with MiniDebugInfo, and with its full
debug information, side by side in one run.

    run-debuginfo-cost.py --exe build/bench/debuginfo-cost \\
                          [--lib /lib/x86_64-linux-gnu/libc.so.6 --lib ...]

For each library (default: libc.so.6, whose debug file libc6-dbg puts under
/usr/lib/debug, and the build's libjankscope-core.so, built with -g), made in
a temporary directory:

  stripped       strip --strip-all, build-id changed (so no debug file is
                 found for it anywhere): .dynsym only
  minidebuginfo  the same with .gnu_debugdata made as Fedora's find-debuginfo
                 does (nm, comm, objcopy --keep-symbols, xz)
  debuginfo      the library as it is: its debug file (or its own DWARF)

and the offset of one of its static functions, which only MiniDebugInfo or
the debug information can name. A library whose debug information is
nowhere is left out. Needs binutils and xz; exit 77 (SKIP) without them.
BENCH_QUICK=1: 5 rounds instead of 20.
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

TOOLS = ("readelf", "objcopy", "strip", "nm", "xz")


def sh(*cmd, **kwargs):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kwargs).stdout


def build_id(path):
    for line in sh("readelf", "-n", path).splitlines():
        if "Build ID:" in line:
            return line.split("Build ID:")[1].strip()
    return None


def has_symtab(path):
    return ".symtab" in sh("readelf", "-S", "-W", path)


def debug_source(lib):
    """The file with the library's full symbol table: itself if not
    stripped, else its debug file under /usr/lib/debug/.build-id."""
    if has_symtab(lib):
        return lib
    bid = build_id(lib)
    if bid is None:
        return None
    path = os.path.join("/usr/lib/debug/.build-id", bid[:2], bid[2:] + ".debug")
    return path if os.path.exists(path) else None


def change_build_id(path):
    """Flips the last byte of the build-id note's value in the file, so no
    debug file matches it any more."""
    bid = bytes.fromhex(build_id(path))
    with open(path, "r+b") as f:
        data = f.read()
        at = data.find(bid)
        if at < 0:
            raise RuntimeError("build-id not found in " + path)
        f.seek(at + len(bid) - 1)
        f.write(bytes([bid[-1] ^ 0xff]))


def make_copies(lib, source, tmp):
    name = os.path.basename(lib)
    stripped = os.path.join(tmp, "stripped", name)
    mini = os.path.join(tmp, "minidebuginfo", name)
    os.makedirs(os.path.dirname(stripped))
    os.makedirs(os.path.dirname(mini))
    sh("strip", "--strip-all", "--remove-section=.gnu_debuglink", "-o", stripped, lib)
    change_build_id(stripped)

    # Fedora's find-debuginfo: the functions .dynsym lacks, in a symtab-only ELF.
    dynamic = [line.split() for line in
               sh("nm", "-D", lib, "--format=posix", "--defined-only").splitlines()]
    dynsyms = set(fields[0] for fields in dynamic)
    dynaddrs = set(int(fields[2], 16) for fields in dynamic if len(fields) > 2)
    funcs = {}
    for line in sh("nm", source, "--format=posix", "--defined-only", "-S").splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] in ("T", "t", "D"):
            funcs[fields[0]] = (fields[1], int(fields[2], 16),
                                int(fields[3], 16) if len(fields) > 3 else 0)
    keep = sorted(set(funcs) - dynsyms)
    keep_file = os.path.join(tmp, "keep-symbols")
    with open(keep_file, "w") as f:
        f.write("\n".join(keep) + "\n")
    mini_elf = os.path.join(tmp, "mini.debug")
    sh("objcopy", "-S", "--remove-section", ".gdb_index", "--remove-section", ".comment",
       "--keep-symbols=" + keep_file, source, mini_elf)
    sh("xz", "-f", mini_elf)
    sh("objcopy", "--add-section", ".gnu_debugdata=" + mini_elf + ".xz", stripped, mini)
    os.unlink(mini_elf + ".xz")

    # A static function of some size: only MiniDebugInfo or debug information names it.
    static = [(addr, sym) for sym, (kind, addr, size) in funcs.items()
              if kind == "t" and size >= 64 and sym in keep and "." not in sym
              and addr not in dynaddrs]
    addr, sym = sorted(static)[len(static) // 2]
    return stripped, mini, addr, sym, len(keep), os.path.getsize(mini) - os.path.getsize(stripped)


def default_libs(exe):
    libs = []
    for line in sh("ldd", exe).splitlines():
        fields = line.split()
        if "=>" in fields and fields[0].startswith("libc.so"):
            libs.append(os.path.realpath(fields[fields.index("=>") + 1]))
    core = os.path.join(os.path.dirname(os.path.abspath(exe)), "..", "src", "libjankscope-core.so")
    if os.path.exists(core):
        libs.append(os.path.realpath(core))
    return libs


def main():
    ap = benchlib.arg_parser(__doc__, "debuginfo-cost")
    ap.add_argument("--lib", action="append", help="a library to copy (repeatable)")
    ap.add_argument("--rounds", type=int, default=5 if benchlib.quick() else 20)
    args = ap.parse_args()
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print("SKIPPED: missing " + ", ".join(missing))
        return benchlib.SKIP
    libs = args.lib or default_libs(args.exe)
    done = 0
    for lib in libs:
        source = debug_source(lib)
        if source is None:
            print("%s: no debug information on this machine, left out" % lib)
            continue
        with tempfile.TemporaryDirectory(prefix="jankscope-debuginfo-cost-") as tmp:
            stripped, mini, addr, sym, n_keep, mini_bytes = make_copies(lib, source, tmp)
            print("%s (%d bytes; debug information: %s)" % (lib, os.path.getsize(lib), source))
            print("  MiniDebugInfo: %d functions, %d bytes; looked up: %s at 0x%x"
                  % (n_keep, mini_bytes, sym, addr))
            sys.stdout.flush()
            out = sh(args.exe, "--rounds", str(args.rounds), "--offset", "%x" % addr,
                     "stripped=" + stripped, "minidebuginfo=" + mini, "debuginfo=" + lib)
            print("  " + "\n  ".join(l for l in out.splitlines() if not l.startswith("RESULT")))
            print()
            done += 1
    print("first: median over %d rounds of a fresh symbolizer's first lookup in the module "
          "(report, symbol table, DWARF looked for); min: the fastest; next: a second lookup "
          "in the same module. Rounds alternate the copies." % args.rounds)
    return 0 if done else benchlib.SKIP


if __name__ == "__main__":
    sys.exit(main())
