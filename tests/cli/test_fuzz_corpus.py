#!/usr/bin/env python3
"""Regression corpus of the report reader's fuzz target (tests/cli/fuzz-reader.sh,
libFuzzer: 934,501 runs, merged to the inputs that cover new paths; the
smallest 250 are kept in tests/cli/fuzz-corpus/). Every file, valid or
hostile, must give a clean exit (0, or 1/2 with a message), never a crash
or a hang, in `summary`, `report` and `export`."""
import os
import subprocess
import sys
import tempfile

CLI = os.environ["JANKSCOPE_CLI"]
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz-corpus")


def main():
    files = sorted(os.listdir(CORPUS))
    if len(files) < 100:
        print(f"FAIL: the corpus has {len(files)} files")
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        for name in files:
            path = os.path.join(CORPUS, name)
            for argv in (["summary", path], ["report", path],
                         ["export", "--format=folded", path, "-o", out]):
                try:
                    proc = subprocess.run([CLI] + argv, capture_output=True, timeout=30,
                                          env=dict(os.environ, LC_ALL="C"))
                except subprocess.TimeoutExpired:
                    failures.append(f"{argv[0]} {name}: hung")
                    continue
                if proc.returncode not in (0, 1, 2):
                    failures.append(f"{argv[0]} {name}: exit {proc.returncode}")
                elif proc.returncode != 0 and not proc.stderr.strip():
                    failures.append(f"{argv[0]} {name}: exit {proc.returncode} without a message")
    for f in failures[:20]:
        print("FAIL:", f)
    print(f"{len(files)} corpus files, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
