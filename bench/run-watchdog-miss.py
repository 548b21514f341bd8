#!/usr/bin/env python3
"""Runs watchdog-miss (stalls of X ms at random phases) with jankscope's
classic periodic ping watchdog (JANKSCOPE_PING_MS=T) and prints, per (T, X),
the share of stalls the ping caught against the formula (docs/background.md)
P(X, T) = clamp((X - T) / T, 0, 1), and the share jankscope's own heartbeat
watchdog saw.

    run-watchdog-miss.py --exe build/bench/watchdog-miss \\
                         --preload build/src/libjankscope-preload.so

Settings: JANKSCOPE_PING_MS=T JANKSCOPE_THRESHOLD_MS=20 JANKSCOPE_MERGE_MS=0
(each stall is its own event); other JANKSCOPE_* settings of the caller apply.
One run per T with M stalls of each X = f·T, f in 0.5, 1, 1.25, 1.5, 1.75, 2,
3, shuffled, each after a random idle gap in [2T, 4T]. Each stall is matched
to the report event overlapping it most:

  ping caught  the event's watchdog.ping_caught is true (a ping stayed
               unanswered for a whole period)
  heartbeat    the event has a watchdog object: jankscope's heartbeat
               watchdog (poll-function timestamps, 16 ms pre-trigger) saw it

Without the preload the stalls still run and the driver exits 77.
BENCH_QUICK=1: T = 100 ms only, M = 8 (default T = 100 and 200 ms, M = 40).
"""

import collections
import math
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

FACTORS = (0.5, 1, 1.25, 1.5, 1.75, 2, 3)


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "watchdog-miss")
    ap.add_argument("--periods", default="100" if quick else "100,200",
                    help="ping periods T in ms (default 100,200; quick 100)")
    ap.add_argument("--trials", type=int, default=8 if quick else 40,
                    help="stalls per (T, X) (default 40, quick 8)")
    ap.add_argument("--threshold-ms", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.periods = [int(x) for x in args.periods.split(",") if x]
    if args.trials < 1 or not args.periods:
        ap.error("bad --trials or --periods")
    return args


def formula(x, t):
    return min(1.0, max(0.0, (x - t) / t))


def match(stall, events):
    best, best_overlap = None, 0
    for ev in events:
        if ev.get("type") == "frame" or ev.get("ongoing"):
            continue
        overlap = min(stall["end_ns"], ev["end_ns"]) - max(stall["start_ns"], ev["start_ns"])
        if overlap > best_overlap:
            best, best_overlap = ev, overlap
    return best


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    print("watchdog-miss: periodic ping watchdog, T in %s ms, X = f*T for f in %s, "
          "%d stalls per (T, X), random idle gap 2T-4T before each"
          % (",".join(map(str, args.periods)), ", ".join("%g" % f for f in FACTORS), args.trials))
    print("config: JANKSCOPE_PING_MS=T JANKSCOPE_THRESHOLD_MS=%d JANKSCOPE_MERGE_MS=0"
          % args.threshold_ms)

    def command(t):
        return [args.exe, "--period-ms", str(t), "--factors", ",".join("%g" % f for f in FACTORS),
                "--trials", str(args.trials), "--seed", str(args.seed)]

    def timeout(t):
        per_stall = 3 * t + sum(FACTORS) / len(FACTORS) * t
        return max(120, int(len(FACTORS) * args.trials * per_stall / 1000 * 3))

    if problem:
        print("without the preload only: " + problem)
        try:
            benchlib.run(command(args.periods[0]), benchlib.baseline_env(),
                         timeout(args.periods[0]), "without")
        except benchlib.RunFailed as e:
            print("FAILED: %s" % e)
            return 1
        print("SKIPPED the with-preload side: " + problem)
        return benchlib.SKIP
    print("preload: " + args.preload)
    sys.stdout.flush()

    rows = []
    n_reports = 0
    extra = []
    for t in args.periods:
        settings = {"JANKSCOPE_PING_MS": t, "JANKSCOPE_THRESHOLD_MS": args.threshold_ms,
                    "JANKSCOPE_MERGE_MS": 0}
        try:
            results, report = benchlib.run_with_report(command(t), args.preload, settings,
                                                       timeout(t), "T=%d ms" % t)
        except benchlib.RunFailed as e:
            print("FAILED: %s" % e)
            return 1
        stalls = [x for x in results if x.get("kind") == "stall"]
        for s in stalls:
            s["start_ns"], s["end_ns"] = int(s["start_ns"]), int(s["end_ns"])
        if report is None:
            rows.append([t, "-", "-", "(no report)", "", "", ""])
            continue
        n_reports += 1
        events = report.get("events", [])
        per = collections.defaultdict(collections.Counter)
        durations = collections.defaultdict(list)
        for s in stalls:
            f = s["factor"]
            c = per[f]
            c["n"] += 1
            durations[f].append((s["end_ns"] - s["start_ns"]) / 1e6)
            ev = match(s, events)
            if ev is None:
                c["no event"] += 1
                continue
            c["event"] += 1
            wd = ev.get("watchdog")
            if wd:
                c["heartbeat"] += 1
                if wd.get("ping_caught"):
                    c["caught"] += 1
                if wd.get("ping_caught") is None:
                    c["no ping_caught member"] += 1
        for f in FACTORS:
            c = per.get(float(f))
            if not c:
                continue
            n = c["n"]
            p = c["caught"] / n
            # binomial standard error of the measured share, for reading the difference
            se = math.sqrt(max(formula(f * t, t) * (1 - formula(f * t, t)), 1e-9) / n)
            rows.append([t, "%g (%.0f ms)" % (f, f * t),
                         "%.0f%%" % (100 * formula(f * t, t)),
                         "%.0f%% (%d/%d)" % (100 * p, c["caught"], n),
                         "%+.0f" % (100 * (p - formula(f * t, t))),
                         "%.0f" % (100 * se),
                         "%.0f%% (%d/%d)" % (100 * c["heartbeat"] / n, c["heartbeat"], n),
                         "%d/%d" % (c["event"], n),
                         benchlib.fmt(benchlib.median(durations[float(f)]), 1)])
            if c["no ping_caught member"]:
                extra.append("T=%d f=%g: %d events without watchdog.ping_caught"
                             % (t, f, c["no ping_caught member"]))
        sampler = (report.get("summary") or {}).get("sampler") or {}
        extra.append("T=%d ms: summary.sampler pings_sent=%s pings_caught=%s stalls=%s; "
                     "%d events in the report for %d stalls"
                     % (t, sampler.get("pings_sent"), sampler.get("pings_caught"),
                        sampler.get("stalls"), len(events), len(stalls)))
        sys.stdout.write("  T=%d ms done\n" % t)
        sys.stdout.flush()

    print()
    benchlib.print_table(["T ms", "X = f*T", "formula", "ping caught", "diff pts", "+-1se pts",
                          "heartbeat", "events", "X measured ms"], rows)
    print()
    for line in extra:
        print(line)
    print("formula = P(X,T) = clamp((X - T) / T, 0, 1) (docs/background.md); 1se = binomial "
          "standard error of the measured share under the formula (differences of 2-3 se are "
          "noise).")
    print("heartbeat = share of stalls whose event has a watchdog object (jankscope's default "
          "watchdog saw the stall).")
    print("preload %s: a JSON report was read in %d of %d runs"
          % (args.preload, n_reports, len(args.periods)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
