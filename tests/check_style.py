#!/usr/bin/env python3
"""Every C file of the tree is formatted as .clang-format says.

    check_style.py [SOURCE_ROOT]   the tree (default: this checkout)

Runs `clang-format --dry-run -Werror` on the .c, .h and .cc files git
tracks (tests/repo_files.py). Fails (exit 1) with clang-format's own
messages: each file, line and the change it wants; `clang-format -i FILE`
applies it. clang-format's output changes between major versions, so the
check runs with the version the tree was formatted with (14, Debian 12's
clang-format package) and skips itself (exit 77, saying why) with another
or without one. Run by meson (suite "unit").
"""

import os
import re
import shutil
import subprocess
import sys

from repo_files import tracked_files

MAJOR = 14
SUFFIXES = (".c", ".h", ".cc")
BATCH = 64


def clang_format():
    """The clang-format program of version MAJOR, or (None, why)."""
    for name in (f"clang-format-{MAJOR}", "clang-format"):
        path = shutil.which(name)
        if path is None:
            continue
        out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"version (\d+)\.", out)
        if m and int(m.group(1)) == MAJOR:
            return path, None
        return None, f"{path} is version {m.group(1) if m else '?'}, the tree follows {MAJOR}"
    return None, f"no clang-format (Debian package clang-format, version {MAJOR})"


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    program, why = clang_format()
    if program is None:
        print(f"SKIP: {why}")
        return 77
    files = [p for p in tracked_files(root) if p.endswith(SUFFIXES)]
    if not files:
        print(f"FAIL: no C files under {root}")
        return 1
    failed = []
    for i in range(0, len(files), BATCH):
        batch = files[i:i + BATCH]
        run = subprocess.run([program, "--dry-run", "-Werror", *batch], cwd=root,
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.stdout.write(run.stderr)
            failed += sorted({line.split(":", 1)[0] for line in run.stderr.splitlines()
                              if ": error:" in line})
    if failed:
        print(f"FAIL: {len(failed)} of {len(files)} files are not formatted "
              f"(clang-format -i FILE...): {' '.join(failed)}")
        return 1
    print(f"PASS: {len(files)} files formatted as .clang-format says")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
