#!/usr/bin/env python3
"""Measures `jankscope merge` on a fleet's worth of reports: wall time, peak
memory (getrusage ru_maxrss of the merge process) and throughput in samples
per second (target: at least 1,000,000 on a 2-core machine).

    run-merge-throughput.py --exe build/src/cli/jankscope [--exe OTHER ...]
                            [--gen bench/merge-gen-reports.py] [--corpus DIR]

The corpus (merge-gen-reports.py: 10,000 reports holding 1,000,000 samples,
shaped like the core's reports) is written to a temporary folder, or reused
from --corpus DIR when it is already there. Each run merges the whole folder
(`jankscope merge DIR -o OUT`) from the page cache (one warm-up run first);
the median of the runs (wall time, and CPU time: user + system, which other
jobs on a shared machine inflate less) is the result, with one thread per
processor (the default) and, for comparison, one thread (--jobs 1). With
several --exe (NAME=PATH, or a path) the runs alternate between them, so that
they share the machine's state.

BENCH_QUICK=1: 500 reports, 50,000 samples, 3 runs (default 5 runs).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402


def parse_args():
    quick = benchlib.quick()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", required=True, action="append",
                    help="a jankscope CLI, NAME=PATH or PATH (repeat to compare)")
    ap.add_argument("--gen", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "merge-gen-reports.py"))
    ap.add_argument("--reports", type=int, default=500 if quick else 10000)
    ap.add_argument("--samples", type=int, default=50000 if quick else 1000000)
    ap.add_argument("--runs", type=int, default=3 if quick else 5)
    ap.add_argument("--corpus", help="folder of the corpus (kept; reused when complete)")
    args = ap.parse_args()
    args.exes = []
    for i, spec in enumerate(args.exe):
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = "cli%d" % (i + 1) if len(args.exe) > 1 else "cli", spec
        args.exes.append((name, path))
    return args


def corpus_complete(folder, reports):
    return os.path.isdir(folder) and len([n for n in os.listdir(folder)
                                          if n.endswith(".json")]) == reports


def merge_once(exe, folder, out, jobs=None):
    """Runs one merge; returns (wall seconds, CPU seconds (user + system), peak
    RSS in MB, stderr)."""
    args = [exe, "merge", folder, "-o", out] + (["--jobs", str(jobs)] if jobs else [])
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        # A preexec_fn makes subprocess fork rather than vfork: ru_maxrss is
        # then the merge's own peak (from this small process's RSS at fork).
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=lambda: None)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise benchlib.RunFailed("jankscope merge exited with %d: %s" % (proc.returncode, text))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


def main():
    args = parse_args()
    tmp = None
    folder = args.corpus
    if folder is None:
        tmp = tempfile.mkdtemp(prefix="jankscope-merge-bench-")
        folder = os.path.join(tmp, "reports")
    try:
        if not corpus_complete(folder, args.reports):
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([sys.executable, args.gen, "--out", folder, "--reports",
                            str(args.reports), "--samples", str(args.samples)], check=True)
        size = sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder))
        out = os.path.join(tmp or tempfile.gettempdir(), "merge-bench-out.json")

        for _, exe in args.exes:  # warm-up: the corpus into the page cache
            merge_once(exe, folder, out)

        print("merge-throughput: %d reports, %d samples, %.1f MB of JSON (%.0f bytes per "
              "sample), %d processors" % (args.reports, args.samples, size / 1e6,
                                          size / args.samples, os.cpu_count()))
        print("  %-9s %-10s %4s %9s %9s %13s %9s %10s" % ("threads", "cli", "run", "wall", "CPU",
                                                           "samples/s", "MB/s", "peak RSS"))
        results = {}
        for label, jobs in (("default", None), ("1", 1)):
            walls = {name: [] for name, _ in args.exes}
            cpus = {name: [] for name, _ in args.exes}
            peaks = {name: [] for name, _ in args.exes}
            for run in range(args.runs):
                for name, exe in args.exes:
                    wall, cpu, peak, _ = merge_once(exe, folder, out, jobs)
                    walls[name].append(wall)
                    cpus[name].append(cpu)
                    peaks[name].append(peak)
                    print("  %-9s %-10s %4d %7.3f s %7.3f s %13.0f %9.0f %7.1f MB"
                          % (label, name, run + 1, wall, cpu, args.samples / wall,
                             size / 1e6 / wall, peak))
            for name, _ in args.exes:
                results[(label, name)] = (statistics.median(walls[name]),
                                          statistics.median(cpus[name]), max(peaks[name]))
        for (label, name), (wall, cpu, peak) in results.items():
            print("RESULT threads=%s cli=%s reports=%d samples=%d bytes=%d wall_s=%.3f cpu_s=%.3f "
                  "samples_per_s=%.0f peak_rss_mb=%.1f"
                  % (label, name, args.reports, args.samples, size, wall, cpu,
                     args.samples / wall, peak))
        # Checked last: reading it makes this process bigger, and the peak RSS
        # of the next merge would start from that.
        with open(out) as f:
            merged = json.load(f)
        if merged["runs"]["count"] != args.reports:
            raise benchlib.RunFailed("the merge holds %d runs, not %d"
                                     % (merged["runs"]["count"], args.reports))
        for name, _ in args.exes:
            wall, _, peak = results[("default", name)]
            print("median%s: %.3f s, %.0f samples/s, peak RSS %.1f MB (target: at least "
                  "1,000,000 samples/s)" % (" (%s)" % name if len(args.exes) > 1 else "", wall,
                                            args.samples / wall, peak))
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except benchlib.RunFailed as e:
        print("merge-throughput: %s" % e, file=sys.stderr)
        sys.exit(1)
