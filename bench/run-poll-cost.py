#!/usr/bin/env python3
"""Runs poll-cost without the jankscope preload, with it, and with it but
JANKSCOPE_SAMPLING=0 (the guard off), in turn, and prints what guarding the
main thread's blocking calls costs per call (median ns), next to the cost of
the system call itself and of the two designs that add the sampling signal
to the call's mask.

    run-poll-cost.py --exe build/bench/poll-cost \\
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
    return benchlib.parse_runs_batches(__doc__, "poll-cost", 7, 3, 200, 50, "1000 calls")


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    cmd = [args.exe, str(args.batches)]
    benchlib.print_banner("poll-cost", args, "1000 calls", problem)

    sides = ("without", "with", "sampling off")
    samples = {s: [] for s in sides}
    reports = 0
    try:
        for i in range(args.runs):
            order = sides[i % 3:] + sides[:i % 3]  # each side first in turn
            for s in order:
                label = "%s run %d" % (s, i + 1)
                if s == "without":
                    samples[s].append(benchlib.run(cmd, benchlib.baseline_env(), 600, label))
                    continue
                if problem:
                    continue
                report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
                try:
                    env = benchlib.preload_env(args.preload, report_dir)
                    if s == "sampling off":
                        env["JANKSCOPE_SAMPLING"] = "0"
                    samples[s].append(benchlib.run(cmd, env, 600, label))
                    reports += any(n.endswith(".json") for n in os.listdir(report_dir))
                finally:
                    shutil.rmtree(report_dir, ignore_errors=True)
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    def values(s, case):
        return [r["ns_per_call"] for run in samples[s] for r in run if r["case"] == case]

    def med(s, case):
        v = values(s, case)
        return benchlib.median(v) if v else None

    rows = []
    for case in [r["case"] for r in samples["without"][0]]:
        off, on, unguarded = med("without", case), med("with", case), med("sampling off", case)
        rows.append([case, benchlib.fmt(off), benchlib.fmt(on), benchlib.fmt(unguarded),
                     benchlib.fmt(on - off if on is not None else None, sign=True),
                     benchlib.fmt(on - unguarded if on is not None else None, sign=True),
                     benchlib.fmt(benchlib.spread(values("without", case))),
                     benchlib.fmt(benchlib.spread(values("with", case))
                                  if values("with", case) else None)])
    print()
    benchlib.print_table(["case", "without", "with", "sampling off", "added", "guard",
                          "spread w/o", "spread with"], rows)
    print()
    print("ns per call, medians of %d runs (each run: the median of its batches); added = with -"
          " without (all of jankscope); guard = with - sampling off (the guard alone: the same"
          " hooks, the guard on or off); spread = slowest - fastest run." % args.runs)
    print("raw-poll0, masked-ppoll0, blocked-poll0 make their system calls directly (no wrapper"
          " on either side): masked-ppoll0 - raw-poll0 and blocked-poll0 - raw-poll0 are what the"
          " designs that always mask the signal would add to every poll.")
    if problem:
        print("SKIPPED the with-preload sides: " + problem)
        return benchlib.SKIP
    print("preload %s: a JSON report was written in %d of %d runs"
          % (args.preload, reports, 2 * args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
