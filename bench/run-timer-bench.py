#!/usr/bin/env python3
"""Runs timer-precision without and with the jankscope preload, alternating,
and prints how late GLib timers fire (median of the runs' p50/p95/p99/max, µs).

    run-timer-bench.py --exe build/bench/timer-precision \\
                       --preload build/src/libjankscope-preload.so

Exit status: 0 done; 77 no preload (the baseline is still printed);
1 a run failed.  BENCH_QUICK=1 makes it short (CI).
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

STATS = ("p50_us", "p95_us", "p99_us", "max_us", "mean_us")


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "timer-precision")
    ap.add_argument("--runs", type=int, default=1 if quick else 3,
                    help="runs per side (default 3, quick 1)")
    ap.add_argument("--seconds", type=float, default=1.0 if quick else 3.0,
                    help="duration of each case (default 3, quick 1)")
    args = ap.parse_args()
    if args.runs < 1 or not 0 < args.seconds <= 600:
        ap.error("bad --runs or --seconds")
    return args


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    side = None if problem else benchlib.PreloadSide(args.preload)
    cmd = [args.exe, "--seconds", str(args.seconds)]
    timeout = int(args.seconds * 10 * 5) + 60

    print("timer-precision: %g s per case, %d runs per side" % (args.seconds, args.runs))
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    sys.stdout.flush()

    samples = {"without": [], "with": []}
    try:
        for i in range(args.runs):
            for s, results in benchlib.run_sides(i, side, cmd, timeout):
                samples[s].append(results)
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    def values(s, case, stat):
        return [r[stat] for run in samples[s] for r in run if r["case"] == case]

    cases = [r["case"] for r in samples["without"][0]]
    rows = []
    for case in cases:
        for k, stat in enumerate(STATS):
            off = benchlib.median(values("without", case, stat))
            on_values = values("with", case, stat)
            on = benchlib.median(on_values) if on_values else None
            rows.append([case if k == 0 else "", stat[:-3] + " µs", benchlib.fmt(off, 0),
                         benchlib.fmt(on, 0),
                         benchlib.fmt(on - off if on is not None else None, 0, sign=True)])
        calls_off = benchlib.median(values("without", case, "callbacks"))
        calls_on = values("with", case, "callbacks")
        rows.append(["", "callbacks", benchlib.fmt(calls_off, 0),
                     benchlib.fmt(benchlib.median(calls_on) if calls_on else None, 0), ""])
    print()
    benchlib.print_table(["case", "lateness", "without", "with", "diff"], rows)
    print()
    print("lateness = when the callback ran - when it was due (µs); medians of %d runs."
          % args.runs)
    print("timeout-N: g_timeout_add_full (N ms); readytime-N: a fixed N ms grid of ready times.")
    return benchlib.finish(side, problem)


if __name__ == "__main__":
    sys.exit(main())
