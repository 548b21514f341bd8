#!/usr/bin/env python3
"""Every reference in the tree can be followed by a reader of the tree.

    check_references.py [SOURCE_ROOT]   the tree (default: this checkout)
    check_references.py --self-test     the check's own cases

Comments, docs and strings cite a public source by name (a paper, a
project's file, a URL) or state the fact itself (docs/background.md keeps
the public sources, this project's choices, the formulas and the measured
platform facts). They never cite a document that is not in the project:

- a numbered background document: "seed 000", "Seed 000 §5.2", "the seeds",
  "003 §6.4";
- a notes file kept outside the tree: FACTS.md, STYLE.md, a shared brief;
- an issue of a tracker the reader cannot see: "issue 6", "issue #3",
  'issue "Frames"', "(the issue)", "Issue target". An issue of a public
  tracker is fine with its URL on the same line.

A citation may be split over two lines of a comment ("seed" at the end of
one, " * 002" on the next): the patterns read across line breaks and
comment marks. Words that only look alike ("--seed 1", "seed=3",
"fuzz-seeds/", "random.Random(seed)") do not match.

Reads the files git tracks (every file under SOURCE_ROOT when it is not a
git checkout), but not translations (po/*.po: regenerated from the
sources), the fuzzer's corpus (mutated bytes) or binary files. Fails (exit
1, each citation with its file, line number and line). Run by meson (suite
"unit").
"""

import os
import re
import sys

from repo_files import tracked_files

# Between two words of a citation: blanks, line breaks, comment marks, "(".
GAP = r"[\s*#/(]{1,12}"

# (pattern, what it cites, what allows it on the same line). Case-insensitive.
# The seed patterns leave out words that only look alike: an option
# ("--seed 1", "[--seed S]"), an attribute ("args.seed"), a path
# ("fuzz-seeds/"), an assignment ("seed=3", "seed = 1").
URL = r"https?://"
PATTERNS = [
    (r"(?<![-\w./])seeds?" + GAP + r"(?:\d|§)", "a numbered seed document", None),
    (r"\bthe" + GAP + r"seeds\b", "the seed documents", None),
    (r"\bthe" + GAP + r"seed's\b", "a seed document", None),
    (r"\bseed" + GAP + r"(?:material|documents?|articles?|texts?)\b", "the seed documents", None),
    (r"\b\d{3}" + GAP + r"§", "a section of a numbered document", None),
    (r"\bFACTS\.md\b", "a notes file outside the project", None),
    (r"\bSTYLE\.md\b", "a notes file outside the project", None),
    (r"\bshared" + GAP + r"brief\b", "a brief outside the project", None),
    # An issue of a public tracker is cited with its URL on the same line.
    (r"\bissues?" + GAP + r"#?\d+", "an issue by its number", URL),
    (r"\bissue" + GAP + r"[\"“']", "an issue by its title", URL),
    (r"[(;,]\s*(?:the\s+|analysis\s+)?issue\s*[);,]", "an issue", URL),
    (r"\bissue(?:'s)?" + GAP + r"(?:targets?|bounds?|goals?|limits?)\b", "an issue's target",
     URL),
]
# Each pattern with the word it cannot match without, to skip it quickly.
COMPILED = [(re.compile(p, re.IGNORECASE), what,
             re.compile(allow, re.IGNORECASE) if allow else None,
             next(k for k in ("seed", "§", "facts.md", "style.md", "brief", "issue")
                  if k in p.lower().replace("\\", "")))
            for p, what, allow in PATTERNS]

SKIP_PREFIXES = ("tests/cli/fuzz-corpus/",)
SKIP_SUFFIXES = (".po", ".png", ".svg", ".jpg", ".gz", ".pb")
SELF = "tests/check_references.py"


def citations(text):
    """(line number, the line, what it cites) for every citation in text;
    matches that overlap (one citation seen by two patterns) count once."""
    spans = []
    lines = text.split("\n")
    lowered = text.lower()
    for regex, what, allow, word in COMPILED:
        if word not in lowered:
            continue
        for m in regex.finditer(text):
            line_no = text.count("\n", 0, m.start()) + 1
            if allow is None or not allow.search(lines[line_no - 1]):
                spans.append((m.start(), m.end(), line_no, what))
    found = []
    end = -1
    for start, stop, line_no, what in sorted(spans):
        if start >= end:
            found.append((line_no, lines[line_no - 1].strip()[:90], what))
        end = max(end, stop)
    return found


def check_tree(root):
    problems = []
    for path in tracked_files(root):
        if path == SELF or path.startswith(SKIP_PREFIXES) or path.endswith(SKIP_SUFFIXES):
            continue
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        with open(full, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        for line_no, line, what in citations(data.decode("utf-8", "replace")):
            problems.append("%s:%d: cites %s (not in the project): state the fact or cite "
                            "a public source (docs/background.md)\n    %s"
                            % (path, line_no, what, line))
    return problems


# (text, number of citations it must hold)
SELF_TEST = [
    ("aggregated by stack signature (seed 000 §4.2).", 1),
    ("Seed 000 §5.2 measured 4.2 % at 10 ms", 1),
    (" * blocking\" (Sentry's frames-delay idea, seed\n * 002).", 1),
    ("Defaults come from the seeds (000 §1.3): 50 ms", 1),
    (" * stall, 200 ms severe; 3 s is where a hang starts (003 §6.4,", 1),
    ("/* Watchdog tiers: hang start, then the seeds' 1 s / 3 s marks. */", 1),
    ("The periodic ping reproduces the seed's formula", 1),
    ("Tiers come from the seed material: 50-200 ms", 1),
    ("  `ppoll` with nanoseconds (FACTS.md). On Debian 12", 1),
    ("# Default settings (docs/report-format.md, the shared brief).", 1),
    ("# src/gtk4-ui: the jankscope window (issue 6)", 1),
    ("fixed in issue #12", 1),
    ("see STYLE.md and /work/shared/FACTS.md", 2),
    ("/* ---- own cost (issue 6 §1, §4) ---- */", 1),
    ('"""Frame checks (issue "Frames"): jankscope times', 1),
    ("What the report must hold (the issue):", 1),
    ("  /* Context (analysis issue; JSR_UNKNOWN when absent). */", 1),
    ("print(\"Target (issue): <= 0.5% at 10 ms.\")", 1),
    ("table). Issue target: top-1 >= 95% at 50 ms.", 1),
    ("TICK_LIMIT_NS = 250 * MS  # the issue's bound between two messages", 1),
    # Words that only look alike.
    ("    merge-gen-reports.py --out DIR --reports 10 [--seed 1]", 0),
    ("rng = random.Random(args.seed)\nseed = 1;\nseed=3", 0),
    ("def corpus(self, n, seed=3):", 0),
    ("# reports under BUILD_DIR/fuzz-seeds/; the corpus grows", 0),
    ("# BUILD_DIR is a configured build tree. The seed\n# corpus is written from", 0),
    ("    with open(os.path.join(d, \"seed-%d.json\" % i), \"w\") as f:", 0),
    ("  rng = g_rand_new_with_seed (seed);", 0),
    ("They print `key=value` facts (for instance", 0),
    ("run.facts.get(\"stall\", [])", 0),
    ("GLib issue #2345 (https://gitlab.gnome.org/GNOME/glib/-/issues/2345)", 0),
    ("seed 000 §5.1 (https://example.org/)", 1),
    ("the issue with this approach is the lock order", 0),
    ("Android's ANR (developer.android.com, \"Diagnose and fix ANRs\")", 0),
]


def self_test():
    failures = 0
    for text, expected in SELF_TEST:
        got = citations(text)
        if len(got) != expected:
            failures += 1
            print("self-test: %r: %d citation(s) expected, found %s" % (text, expected, got))
    print("references self-test: %s" % ("ok" if not failures else "%d failed" % failures))
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check_tree(root)
    for problem in problems:
        print(problem)
    print("references: %s" % ("%d citation%s of documents outside the project"
                              % (len(problems), "s" * (len(problems) > 1))
                              if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
