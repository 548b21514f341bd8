#!/usr/bin/env python3
"""Measures the reading side, its readers and its writers: `jankscope export`
of many reports into one file (chrome, folded and json formats), `jankscope
merge` of the reports into an aggregate and of that aggregate into another
(read, then written again), and `jankscope report` of the reports (read and
folded, a few tables printed), with wall time, output size and peak memory.

    run-export-throughput.py --exe build/src/cli/jankscope [--exe OTHER ...]
                             [--gen bench/merge-gen-reports.py] [--corpus DIR]

The corpus (merge-gen-reports.py: 100 reports holding 100,000 samples, drawn
from 2,000 causes) is written to a temporary folder, or reused from --corpus
DIR. The aggregate is the merge of the corpus by the first --exe. Each case
runs once to warm the page cache, then --runs times per CLI; with several
--exe (NAME=PATH, or a path) the runs alternate between them, so that they
share the machine's state, and the median of each is the result: wall time
and CPU time (user + system, which other jobs on a shared machine inflate
less). Outputs of the CLIs are compared byte for byte (printed, not judged).

BENCH_QUICK=1: 20 reports, 20,000 samples, 3 runs (default 5 runs).
"""

import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

FORMATS = ("chrome", "folded", "json")
# Besides the exports: the reports into an aggregate (read, fold, write), the
# aggregate into another (read, write) and the reports ranked (read, fold).
CASES = FORMATS + ("merge-reports", "merge-aggregate", "report")


def parse_args():
    quick = benchlib.quick()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", required=True, action="append",
                    help="a jankscope CLI, NAME=PATH or PATH (repeat to compare)")
    ap.add_argument("--gen", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "merge-gen-reports.py"))
    ap.add_argument("--reports", type=int, default=20 if quick else 100)
    ap.add_argument("--samples", type=int, default=20000 if quick else 100000)
    ap.add_argument("--causes", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3 if quick else 5)
    ap.add_argument("--corpus", help="folder of the corpus (kept; reused when complete)")
    args = ap.parse_args()
    exes = []
    for i, spec in enumerate(args.exe):
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = "cli%d" % (i + 1) if len(args.exe) > 1 else "cli", spec
        exes.append((name, path))
    args.exes = exes
    return args


def run_once(args_list, stdout_path=None):
    """Runs one command (its standard output into stdout_path, or nowhere);
    returns (wall seconds, CPU seconds (user + system), peak RSS in MB)."""
    with tempfile.TemporaryFile() as err, \
            open(stdout_path or os.devnull, "wb") as out:
        start = time.perf_counter()
        # A preexec_fn makes subprocess fork rather than vfork: ru_maxrss is
        # then the command's own peak.
        proc = subprocess.Popen(args_list, stdout=out, stderr=err,
                                preexec_fn=lambda: None)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            raise benchlib.RunFailed("%s exited with %d: %s"
                                     % (" ".join(args_list[:3]), code,
                                        err.read().decode("utf-8", "replace")))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    args = parse_args()
    tmp = tempfile.mkdtemp(prefix="jankscope-export-bench-")
    folder = args.corpus or os.path.join(tmp, "reports")
    try:
        if not (os.path.isdir(folder) and
                len([n for n in os.listdir(folder) if n.endswith(".json")]) == args.reports):
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([sys.executable, args.gen, "--out", folder, "--reports",
                            str(args.reports), "--samples", str(args.samples), "--causes",
                            str(args.causes)], check=True, stdout=subprocess.DEVNULL)
        files = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json"))
        size = sum(os.path.getsize(f) for f in files)
        aggregate = os.path.join(tmp, "aggregate.json")
        run_once([args.exes[0][1], "merge", folder, "-o", aggregate])

        def run_case(case, exe, out):
            if case == "merge-reports":
                return run_once([exe, "merge", "-o", out] + files)
            if case == "merge-aggregate":
                return run_once([exe, "merge", aggregate, "-o", out])
            if case == "report":
                return run_once([exe, "report"] + files, stdout_path=out)
            return run_once([exe, "export", "--format=" + case, "-o", out] + files)

        print("export-throughput: %d reports, %d samples, %.1f MB of JSON; aggregate %.1f MB; "
              "%d processors; %d runs per CLI" % (len(files), args.samples, size / 1e6,
                                                   os.path.getsize(aggregate) / 1e6,
                                                   os.cpu_count(), args.runs))
        print("  %-16s %-10s %4s %9s %9s %10s %10s" % ("case", "cli", "run", "wall", "CPU",
                                                        "output", "peak RSS"))
        for case in CASES:
            outs = {name: os.path.join(tmp, "out-%s-%s" % (case, name)) for name, _ in args.exes}
            for name, exe in args.exes:  # warm-up
                run_case(case, exe, outs[name])
            walls = {name: [] for name, _ in args.exes}
            cpus = {name: [] for name, _ in args.exes}
            peaks = {name: [] for name, _ in args.exes}
            for run in range(args.runs):
                for name, exe in args.exes:
                    wall, cpu, peak = run_case(case, exe, outs[name])
                    walls[name].append(wall)
                    cpus[name].append(cpu)
                    peaks[name].append(peak)
                    print("  %-16s %-10s %4d %7.3f s %7.3f s %7.1f MB %7.1f MB"
                          % (case, name, run + 1, wall, cpu, os.path.getsize(outs[name]) / 1e6,
                             peak))
            for name, _ in args.exes:
                print("RESULT case=%s cli=%s wall_s=%.3f cpu_s=%.3f output_bytes=%d "
                      "peak_rss_mb=%.1f"
                      % (case, name, statistics.median(walls[name]), statistics.median(cpus[name]),
                         os.path.getsize(outs[name]), max(peaks[name])))
            first = args.exes[0][0]
            for name, _ in args.exes[1:]:
                same = filecmp.cmp(outs[first], outs[name], shallow=False)
                print("  %s: output of %s and %s %s" % (case, first, name,
                                                       "identical" if same else "DIFFERENT"))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except benchlib.RunFailed as e:
        print("export-throughput: %s" % e, file=sys.stderr)
        sys.exit(1)
