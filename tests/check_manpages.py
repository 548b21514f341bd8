#!/usr/bin/env python3
"""The manual pages (docs/jankscope.1, docs/jankscope-viewer.1) document what the programs take.

    check_manpages.py SOURCE_ROOT JANKSCOPE [JANKSCOPE_VIEWER]

The pages are written by hand (a command-line tool of subcommands is more than help2man makes
of GOption's --help), and this check keeps them true:
  - every command of "jankscope --help" has its entry (".B NAME" under COMMANDS), and every
    entry there is a command;
  - every option of "jankscope --help" and of "jankscope COMMAND --help" (long and short) is in
    jankscope.1, every option of "jankscope-viewer --help" in jankscope-viewer.1;
  - every JANKSCOPE variable the code reads ("JANKSCOPE..." strings in src/) and every variable
    of the README's "Settings" table is in jankscope.1's ENVIRONMENT, but the viewer's test
    hooks (below).
Fails (exit 1, one line per problem). Run by meson (suite "unit").
"""

import os
import re
import subprocess
import sys

# Read by the viewer for tests/view/check_view.py only (lines on stdout, a screenshot): not for
# users, so not in the manual.
TEST_HOOKS = re.compile(r"JANKSCOPE_VIEWER_TEST\w*")

OPTION = re.compile(r"^\s+(?:(-[A-Za-z]), )?(--[a-z][a-z-]*)", re.M)


def help_text(*argv):
    env = dict(os.environ, LC_ALL="C", LANGUAGE="")
    out = subprocess.run(list(argv) + ["--help"], env=env, capture_output=True, text=True,
                         timeout=30)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} --help failed ({out.returncode}): {out.stderr}")
    return out.stdout


def plain(roff):
    """The roff source with its escapes undone, enough to find names in it."""
    text = roff.replace("\\-", "-")
    text = re.sub(r"\\f[BIRP]", "", text)
    return text


def options_of(help_out):
    found = set()
    for short, long in OPTION.findall(help_out):
        if long in ("--help-all", "--help-gapplication", "--gapplication-service"):
            continue  # GApplication's own, the same in every GTK program
        found.add(long)
        if short:
            found.add(short)
    return found


def section(text, name):
    match = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % re.escape(name), text, re.M | re.S)
    return match.group(1) if match else ""


def mentions(text, option):
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), text) is not None


def code_variables(root):
    names = set()
    for folder, dirs, files in os.walk(os.path.join(root, "src")):
        dirs.sort()
        for name in files:
            if name.endswith((".c", ".h")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    names.update(re.findall(r'"(JANKSCOPE(?:_[A-Z0-9_]+)?)"', f.read()))
    return {n for n in names if not TEST_HOOKS.fullmatch(n)}


def readme_variables(root):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        settings = f.read().split("### Settings", 1)[1].split("\n### ", 1)[0]
    return set(re.findall(r"^\| `(JANKSCOPE\w*)` \|", settings, re.M))


def main():
    root, cli = sys.argv[1], sys.argv[2]
    viewer = sys.argv[3] if len(sys.argv) > 3 else None
    problems = []

    with open(os.path.join(root, "docs", "jankscope.1"), encoding="utf-8") as f:
        page = plain(f.read())
    top = help_text(cli)
    commands = re.findall(r"^  ([a-z][a-z-]*)  ", top.split("Commands:", 1)[1], re.M)
    if not commands:
        problems.append("jankscope --help lists no commands")
    # The commands' own entries, not those nested in them (.RS ... .RE: options, formats).
    outer = re.sub(r"^\.RS\n.*?^\.RE\n", "", section(page, "COMMANDS"), flags=re.M | re.S)
    documented = set(re.findall(r"^\.B ([a-z][a-z-]*)$", outer, re.M))
    for command in commands:
        if command not in documented:
            problems.append(f"jankscope.1: no entry for the command {command}")
    for name in sorted(documented - set(commands)):
        problems.append(f"jankscope.1: documents {name}, which jankscope --help does not list")
    for option in sorted(options_of(top)):
        if not mentions(section(page, "OPTIONS"), option):
            problems.append(f"jankscope.1: OPTIONS lacks {option}")
    for command in commands:
        if command == "help":
            continue
        for option in sorted(options_of(help_text(cli, command))):
            if not mentions(page, option):
                problems.append(f"jankscope.1: lacks {option} of jankscope {command}")

    environment = section(page, "ENVIRONMENT")
    for name in sorted(code_variables(root) | readme_variables(root)):
        if not re.search(r"^\.BR? %s(\s|$)" % name, environment, re.M):
            problems.append(f"jankscope.1: ENVIRONMENT lacks {name}")

    if viewer:
        with open(os.path.join(root, "docs", "jankscope-viewer.1"), encoding="utf-8") as f:
            viewer_page = plain(f.read())
        for option in sorted(options_of(help_text(viewer))):
            if not mentions(section(viewer_page, "OPTIONS"), option):
                problems.append(f"jankscope-viewer.1: OPTIONS lacks {option}")

    for problem in problems:
        print(problem)
    print("manpages: %s" % (f"{len(problems)} problem(s)" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
