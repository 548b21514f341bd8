#!/usr/bin/env python3
"""Who may use whom in src/ (src/DESIGN.md, "Folders and who may use whom").

    check_layering.py [SOURCE_ROOT]     the tree (default: this checkout)
    check_layering.py --self-test       the checks themselves, on made-up trees

Fails (exit 1, one line per problem) when
 - a file of src/FOLDER/ includes ("...") a header of a folder FOLDER must
   not use: the allowed folders are USES below and what they use in turn;
   of the core, the GTK 4 window may include its live API header only;
 - a file includes <...> a library its folder must not use (the loaders
   libc only; the reader GLib only; no json-glib on the reading side, whose
   one JSON reader is src/reader/'s and writer src/common/'s; no GTK
   outside the window and the viewer);
 - a header is not found in any folder (a new folder must be given its
   place here);
 - a src/FOLDER/meson.build names a file of another folder, by a path
   ('../reader/jsr-report.c') or by its name in a path joined with "/"
   (... / 'reader' / 'jsr-report.c'), or uses another folder's list of
   sources (reader_sources): each folder builds its own files into its own
   artifacts and links the others' libraries, but for the bridge, whose
   code is compiled into the loaders by design;
 - a tests/ meson.build names a source file of the reading side or of the
   window, or uses their lists of sources (the tests link their
   libraries).
Run by meson (suite "unit").
"""

import os
import re
import shutil
import sys
import tempfile

# FOLDER: the folders whose headers it may include (and, through them, what
# they may).
USES = {
    "bridge": set(),                 # compiled into the loaders: libc only
    "preload": {"bridge"},           # libc and libdl only
    "gtk3-module": {"bridge"},       # libc and libdl only
    "common": set(),                 # GLib only, in the core and the reader
    "symbols": {"common"},           # the symbolizer: the core's and the CLI's
    "core": {"common", "bridge", "symbols"},
    "reader": {"common"},
    "export": {"reader"},
    "cli": {"reader", "export", "symbols"},
    "gtk4-ui": {"reader", "export"},
    "viewer": {"gtk4-ui", "reader"},
}

# Single headers of a folder another one may include without using the
# folder: the core's live API (the window reads live snapshots through it).
EXTRA_HEADERS = {
    "gtk4-ui": {("core", "js-live.h")},
}

# Headers made at build time, by folder.
GENERATED = {
    "jankscope-config.h": None,      # configure_file at the top: any folder
    "profile.pb-c.h": "export",      # protoc-c, from src/export/pprof/profile.proto
}

# <...> includes a folder must not use, by prefix.
GLIB_FAMILY = ("glib", "gio/", "gobject/", "gmodule", "json-glib/", "gtk/", "gdk/", "pango",
               "cairo", "sysprof", "protobuf-c/")
FORBIDDEN_SYSTEM = {
    "bridge": GLIB_FAMILY,
    "preload": GLIB_FAMILY,
    "gtk3-module": GLIB_FAMILY,
    "common": ("gio/", "json-glib/", "gtk/", "gdk/"),
    "reader": ("gio/", "json-glib/", "gtk/", "gdk/"),
    "symbols": ("gio/", "gobject/", "json-glib/", "gtk/", "gdk/"),
    "export": ("json-glib/", "gtk/", "gdk/"),
    "cli": ("json-glib/", "gtk/", "gdk/"),
}

# Folders whose sources other folders may compile: the bridge (core-loader.c
# in the preload and the GTK3 module, its headers' folder on the core's
# include path).
SHARED_SOURCES = {"bridge"}

# Folders whose sources the tests link as libraries, never compile.
LIBRARY_FOLDERS = ("symbols", "reader", "export", "cli", "gtk4-ui", "viewer")

QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A list of sources: NAME = files(... or NAME += files(...
SOURCE_LIST = re.compile(r"^\s*(\w+)\s*\+?=\s*files\s*\(", re.M)
ANGLED = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)
STRING = re.compile(r"'([^'\n]*)'")


def closure(folder):
    seen, todo = set(), [folder]
    while todo:
        for used in USES.get(todo.pop(), ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def source_files(folder_path):
    for root, dirs, files in os.walk(folder_path):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.join(root, name)


def folders_of(src):
    return sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))


def owners(src):
    """File name -> the folders of src/ that hold a .c or .h of that name."""
    owner = {}
    for folder in folders_of(src):
        for path in source_files(os.path.join(src, folder)):
            owner.setdefault(os.path.basename(path), set()).add(folder)
    return owner


def check_includes(src, problems):
    folders = folders_of(src)
    owner = owners(src)
    for folder in folders:
        if folder not in USES:
            problems.append("src/%s/: a folder without a place in check_layering.py's USES"
                            % folder)
            continue
        allowed = closure(folder) | {folder}
        for path in source_files(os.path.join(src, folder)):
            rel = os.path.relpath(path, os.path.dirname(src))
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for header in QUOTED.findall(text):
                name = os.path.basename(header)
                if name in GENERATED:
                    homes = {GENERATED[name]} if GENERATED[name] else set(allowed)
                else:
                    homes = owner.get(name, set())
                if not homes:
                    problems.append("%s: includes \"%s\", found in no folder of src/"
                                    % (rel, header))
                elif not (homes & allowed) and not any((home, name) in EXTRA_HEADERS.get(folder, ())
                                                       for home in homes):
                    problems.append("%s: includes \"%s\" of src/%s/, which src/%s/ must not use"
                                    % (rel, header, "/, src/".join(sorted(homes)), folder))
            for header in ANGLED.findall(text):
                for prefix in FORBIDDEN_SYSTEM.get(folder, ()):
                    if header.startswith(prefix):
                        problems.append("%s: includes <%s>, a library src/%s/ must not use"
                                        % (rel, header, folder))


def meson_files(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        if "meson.build" in files:
            yield os.path.join(root, "meson.build")


def code_of(path):
    """The text of a meson.build without its comments."""
    with open(path, encoding="utf-8") as f:
        return "\n".join(line.split("#", 1)[0] for line in f)


def identifiers_of(text):
    return set(re.findall(r"\b\w+\b", STRING.sub("''", text)))


def check_meson(root, problems):
    src = os.path.join(root, "src")
    owner = owners(src)
    # The lists of sources each folder's meson.build makes.
    lists = {}
    for folder in sorted(USES):
        path = os.path.join(src, folder, "meson.build")
        if os.path.exists(path):
            for name in SOURCE_LIST.findall(code_of(path)):
                lists.setdefault(name, folder)

    def foreign_file(value, folder):
        """The folder whose source file `value` names, when not `folder`."""
        homes = owner.get(os.path.basename(value), set())
        if not value.endswith((".c", ".h")) or not homes or folder in homes:
            return None
        return sorted(homes)[0]

    for folder in sorted(USES):
        path = os.path.join(src, folder, "meson.build")
        if not os.path.exists(path):
            continue
        base = os.path.dirname(path)
        code = code_of(path)
        for value in STRING.findall(code):
            other = None
            if "/" in value:
                target = os.path.normpath(os.path.join(base, value))
                rel = os.path.relpath(target, src)
                if not rel.startswith(".."):  # outside src/: data/, the build tree
                    other = rel.split(os.sep, 1)[0]
            if other is None or other == folder:
                other = foreign_file(value, folder)
            if other is not None and other != folder and other in USES and \
               other not in SHARED_SOURCES:
                problems.append("src/%s/meson.build: names '%s', a file of src/%s/"
                                % (folder, value, other))
        for name in sorted(identifiers_of(code)):
            other = lists.get(name)
            if other is not None and other != folder and other not in SHARED_SOURCES:
                problems.append("src/%s/meson.build: uses %s, the sources of src/%s/"
                                % (folder, name, other))
    tests = os.path.join(root, "tests")
    for path in meson_files(tests):
        code = code_of(path)
        rel_path = os.path.relpath(path, root)
        for value in STRING.findall(code):
            homes = owner.get(os.path.basename(value), set()) if value.endswith(".c") else set()
            for folder in LIBRARY_FOLDERS:
                if folder in homes or \
                   re.search(r"(^|/)src/%s/[^']*\.c$" % re.escape(folder), value) or \
                   re.search(r"\.\./(\.\./)*src/%s/[^']*\.c$" % re.escape(folder), value):
                    problems.append("%s: names '%s': link the library of src/%s/"
                                    % (rel_path, value, folder))
        for name in sorted(identifiers_of(code)):
            if lists.get(name) in LIBRARY_FOLDERS:
                problems.append("%s: uses %s: link the library of src/%s/"
                                % (rel_path, name, lists[name]))


def check(root):
    problems = []
    check_includes(os.path.join(root, "src"), problems)
    check_meson(root, problems)
    return problems


def self_test():
    """Each kind of problem is found in a made-up tree, and a clean one passes."""
    failures = []

    def tree(files):
        root = tempfile.mkdtemp(prefix="jankscope-layering-")
        for name, content in files.items():
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(content)
        return root

    base = {
        "src/common/js-signature.h": "#include <glib.h>\n",
        "src/reader/jsr-report.h": '#include "js-signature.h"\n',
        "src/reader/meson.build": "reader_sources = files('jsr-report.c')\n",
        "src/reader/jsr-report.c": '#include "jsr-report.h"\n',
        "src/export/jse-common.h": '#include "jsr-report.h"\n#include "jankscope-config.h"\n',
        "src/cli/cli-common.h": '#include "jse-common.h"\n#include "js-signature.h"\n',
        "src/core/js-live.h": "",
        "src/core/js-ring.h": "",
        "src/gtk4-ui/jsui-panel.c": '#include "js-live.h"\n#include "jse-common.h"\n',
        "src/viewer/jsv-window.c": '#include "jsui-panel.h"\n#include "jsr-report.h"\n',
        "src/gtk4-ui/jsui-panel.h": "",
        "src/bridge/core-loader.c": "#include <dlfcn.h>\n",
        "src/preload/meson.build": "files('../bridge/core-loader.c')\n",
        "tests/cli/meson.build": "executable('t', 't.c', dependencies: jankscope_reader_dep)\n",
    }
    cases = [
        ("clean", {}, None),
        ("reader uses the CLI", {"src/reader/jsr-display.c": '#include "cli-common.h"\n'},
         'includes "cli-common.h" of src/cli/'),
        ("export uses the core", {"src/export/jse-chrome.c": '#include "js-ring.h"\n'},
         "src/export/ must not use"),
        ("window uses another core header", {"src/gtk4-ui/jsui-x.c": '#include "js-ring.h"\n'},
         "src/gtk4-ui/ must not use"),
        ("viewer uses the core's live header",
         {"src/viewer/jsv-x.c": '#include "js-live.h"\n'}, "src/viewer/ must not use"),
        ("unknown header", {"src/cli/x.c": '#include "nowhere.h"\n'}, "found in no folder"),
        ("unknown folder", {"src/newthing/x.c": ""}, "without a place"),
        ("glib in the preload", {"src/preload/p.c": "#include <glib.h>\n"},
         "a library src/preload/ must not use"),
        ("json-glib in the reader", {"src/reader/r.c": "#include <json-glib/json-glib.h>\n"},
         "a library src/reader/ must not use"),
        ("a folder compiles another's file",
         {"src/gtk4-ui/meson.build": "files('../reader/jsr-report.c')\n"},
         "names '../reader/jsr-report.c'"),
        ("a folder compiles another's file by a joined path",
         {"src/cli/meson.build":
          "files(meson.project_source_root() / 'src' / 'reader' / 'jsr-report.c')\n"},
         "names 'jsr-report.c', a file of src/reader/"),
        ("a folder compiles another's list of sources",
         {"src/cli/meson.build": "executable('jankscope', 'cli.c', reader_sources)\n"},
         "uses reader_sources, the sources of src/reader/"),
        ("a test compiles the reader",
         {"tests/cli/meson.build": "executable('t', 'src/reader/jsr-report.c')\n"},
         "link the library of src/reader/"),
        ("a test compiles the reader by a joined path",
         {"tests/cli/meson.build":
          "executable('t', meson.project_source_root() / 'src' / 'reader' / 'jsr-report.c')\n"},
         "names 'jsr-report.c': link the library of src/reader/"),
        ("a test compiles the reader's list of sources",
         {"tests/cli/meson.build": "executable('t', 't.c', reader_sources)\n"},
         "uses reader_sources: link the library of src/reader/"),
    ]
    for name, extra, expected in cases:
        root = tree({**base, **extra})
        try:
            problems = check(root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if expected is None and problems:
            failures.append("%s: unexpected problems: %s" % (name, problems))
        elif expected is not None and not any(expected in p for p in problems):
            failures.append("%s: not found (%r): %s" % (name, expected, problems))
    for failure in failures:
        print("self-test: " + failure)
    print("self-test: %d cases, %d failures" % (len(cases), len(failures)))
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for problem in problems:
        print(problem)
    print("layering: %s" % ("%d problem%s" % (len(problems), "s" * (len(problems) > 1))
                            if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
