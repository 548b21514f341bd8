#!/usr/bin/env python3
"""Runs scene-cost without and with the jankscope preload, alternating, and
prints what one annotation API call costs the main thread (median ns).

    run-scene-cost.py --exe build/bench/scene-cost \\
                      --preload build/src/libjankscope-preload.so

Exit status: 0 done; 77 no preload (the baseline is still printed);
1 a run failed.  BENCH_QUICK=1 makes it short (CI).
"""

import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402


def parse_args():
    return benchlib.parse_runs_batches(__doc__, "scene-cost", 5, 1, 60, 12, "2048 pairs")


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    cmd = [args.exe, str(args.batches)]
    benchlib.print_banner("scene-cost", args, "2048 pairs", problem)

    samples = {"without": [], "with": []}
    dropped = []
    reports = 0
    try:
        for i in range(args.runs):
            order = ("without", "with") if i % 2 == 0 else ("with", "without")
            for side in order:
                if side == "with" and problem:
                    continue
                label = "%s run %d" % (side, i + 1)
                if side == "without":
                    samples[side].append(benchlib.run(cmd, benchlib.baseline_env(), 600, label))
                    continue
                report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
                try:
                    results = benchlib.run(cmd, benchlib.preload_env(args.preload, report_dir),
                                           600, label)
                    report = benchlib.read_report(report_dir)
                finally:
                    shutil.rmtree(report_dir, ignore_errors=True)
                if report is not None:
                    reports += 1
                    dropped.append(report["summary"]["records_dropped"])
                samples[side].append(results)
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    def values(side, case, key="ns_per_call"):
        return [r[key] for run in samples[side] for r in run if r["case"] == case]

    rows = []
    for case in [r["case"] for r in samples["without"][0]]:
        off = benchlib.median(values("without", case))
        on_values = values("with", case)
        on = benchlib.median(on_values) if on_values else None
        active = values("with", case, "active")
        rows.append([case, benchlib.fmt(off, 2), benchlib.fmt(on, 2),
                     benchlib.fmt(on - off if on is not None else None, 2, sign=True),
                     benchlib.fmt(benchlib.spread(on_values), 2) if on_values else "-",
                     "yes" if active and min(active) == 1 else "no"])
    print()
    benchlib.print_table(["case", "without ns/call", "with ns/call", "diff", "with spread",
                          "recorded"], rows)
    print()
    print("ns per call, medians of %d runs; a push+pop or begin+end pair is two calls."
          % args.runs)
    if problem:
        print("SKIPPED the with-preload side: " + problem)
        return benchlib.SKIP
    print("preload %s: a JSON report was written in %d of %d runs; records_dropped: %s"
          % (args.preload, reports, len(samples["with"]), dropped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
