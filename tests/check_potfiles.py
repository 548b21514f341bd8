#!/usr/bin/env python3
"""po/POTFILES.in lists every file with translatable strings, and only files
that exist.

    check_potfiles.py [SOURCE_ROOT]     the tree (default: this checkout)

A C file of src/ or demo/ that marks a string (_(), N_(), C_(), NC_()), or a
.ui file of data/ or demo/ with a translatable="yes" property, must be
listed, or xgettext never sees its strings; a listed file that is gone (a
file moved to another folder) makes xgettext fail. Fails (exit 1, one line
per problem). Run by meson (suite "unit").
"""

import os
import re
import sys

MARKED = re.compile(r"\b(?:N?C?_)\s*\(")
UI_MARKED = re.compile(r'translatable="yes"')


def candidates(root):
    for top, ext, pattern in (("src", ".c", MARKED), ("demo", ".c", MARKED),
                              ("data", ".ui", UI_MARKED), ("demo", ".ui", UI_MARKED)):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(ext):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    if pattern.search(f.read()):
                        yield os.path.relpath(path, root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "po", "POTFILES.in"), encoding="utf-8") as f:
        listed = [line.strip() for line in f
                  if line.strip() and not line.lstrip().startswith("#")]
    problems = []
    for path in listed:
        if not os.path.isfile(os.path.join(root, path)):
            problems.append("po/POTFILES.in: lists %s, which does not exist" % path)
    for path in candidates(root):
        if path not in listed:
            problems.append("%s: has translatable strings, but po/POTFILES.in does not list it"
                            % path)
    for problem in problems:
        print(problem)
    print("potfiles: %s" % ("%d problem%s" % (len(problems), "s" * (len(problems) > 1))
                            if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
