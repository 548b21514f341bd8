#!/usr/bin/env python3
"""Runs attribution (stalls of 200 ms: 160 ms in bench_target, then 40 ms in
bench_other) with the jankscope preload at several sampling intervals and
prints how often the report blames bench_target (docs/background.md, "Sampling stacks").

    run-attribution.py --exe build/bench/attribution \\
                       --preload build/src/libjankscope-preload.so

Per interval I (JANKSCOPE_SAMPLE_MS=I, JANKSCOPE_THRESHOLD_MS=50,
JANKSCOPE_MERGE_MS=0; other JANKSCOPE_* settings of the caller apply), one run
of K stalls; each injected stall is matched to the report event it overlaps
most:

  samples/stall  the event's samples_total (folded samples counted)
  hit rate       share of stalls whose event has a stack with bench_target
  top-1          share whose event's culprit.function is bench_target
  theory         1 - (1 - 0.8)^n, n = samples of that stall, averaged
  theory(pre)    the same with r = (160 - pre-trigger) / (200 - pre-trigger):
                 nothing is sampled before the pre-trigger

Then the same with bench_other first (0-40 ms) and bench_target last, for
--reverse-intervals (default 50 and 100 ms): jankscope samples at fixed
delays from the stall's start, so with few samples the position of the
culprit in the stall matters.

Without the preload the stalls still run (so the program is checked) and the
driver exits 77.  BENCH_QUICK=1: 10 stalls per interval (default 50).
"""

import collections
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

INTERVALS = (5, 10, 20, 50, 100)
TARGET = "bench_target"
OTHER = "bench_other"


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "attribution")
    ap.add_argument("--stalls", type=int, default=10 if quick else 50,
                    help="stalls per interval (default 50, quick 10)")
    ap.add_argument("--intervals", default=",".join(map(str, INTERVALS)),
                    help="sampling intervals in ms (default %s)" % ",".join(map(str, INTERVALS)))
    ap.add_argument("--gap-ms", default="100-200" if quick else "200-400",
                    help="idle gap between stalls, MIN-MAX ms (default 200-400, quick 100-200)")
    ap.add_argument("--reverse-intervals", default="50,100",
                    help="intervals also run with %s first (default 50,100; '' for none)" % OTHER)
    ap.add_argument("--pretrigger-ms", type=int, default=16,
                    help="JANKSCOPE_PRETRIGGER_MS (default 16, the product's default)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.intervals = [int(x) for x in args.intervals.split(",") if x]
    args.reverse_intervals = [int(x) for x in args.reverse_intervals.split(",") if x]
    if args.stalls < 1 or not args.intervals:
        ap.error("bad --stalls or --intervals")
    return args


def match(stall, events):
    """The event overlapping the stall most, or None."""
    best, best_overlap = None, 0
    for ev in events:
        if ev.get("type") == "frame" or ev.get("ongoing"):
            continue
        overlap = min(stall["end_ns"], ev["end_ns"]) - max(stall["start_ns"], ev["start_ns"])
        if overlap > best_overlap:
            best, best_overlap = ev, overlap
    return best


def stack_functions(stack):
    return [f.get("function") for f in stack.get("frames", [])]


def analyse(stalls, report, r, r_pre):
    """Per stall: its event, samples, hit, top-1; misses by reason."""
    events = report.get("events", []) if report else []
    out = collections.Counter()
    n_samples, theory, theory_pre = [], [], []
    misses = collections.Counter()
    for stall in stalls:
        ev = match(stall, events)
        if ev is None:
            out["no event"] += 1
            misses["no event"] += 1
            continue
        out["matched"] += 1
        n = ev.get("samples_total") or 0
        n_samples.append(n)
        theory.append(1 - (1 - r) ** n)
        theory_pre.append(1 - (1 - r_pre) ** n)
        stacks = ev.get("stacks") or []
        if any(TARGET in stack_functions(s) for s in stacks):
            out["hit"] += 1
        culprit = ev.get("culprit")
        name = culprit.get("function") if culprit else None
        if name == TARGET:
            out["top1"] += 1
        else:
            if culprit is None:
                why = "no culprit (%d samples)" % n
            else:
                why = "culprit %s (%s, %s/%s samples)" % (
                    name, culprit.get("reason"), culprit.get("samples"),
                    culprit.get("of_samples"))
            misses[why] += 1
        if not ev.get("watchdog"):
            out["no watchdog"] += 1
    return out, n_samples, theory, theory_pre, misses


def share_sampled(pre, other_first):
    """bench_target's share of the part of a stall that is sampled: from
    the pre-trigger to the end (200 ms)."""
    lo, hi = (40.0, 200.0) if other_first else (0.0, 160.0)
    return (hi - max(lo, pre)) / (200.0 - pre)


def run_case(args, cmd, timeout, interval, other_first, rows, notes):
    """One run: K stalls at one interval; appends a table row and notes.
    Returns whether a report was read; raises RunFailed."""
    pre = args.pretrigger_ms
    r_pre = share_sampled(pre, other_first)
    settings = {"JANKSCOPE_SAMPLE_MS": interval, "JANKSCOPE_THRESHOLD_MS": 50,
                "JANKSCOPE_MERGE_MS": 0, "JANKSCOPE_PRETRIGGER_MS": pre}
    label = "interval %d ms%s" % (interval, ", other first" if other_first else "")
    results, report = benchlib.run_with_report(cmd + (["--other-first"] if other_first else []),
                                               args.preload, settings, timeout, label)
    stalls = [x for x in results if x.get("kind") == "stall"]
    for s in stalls:
        for k in ("start_ns", "split_ns", "end_ns"):
            s[k] = int(s[k])
    if report is None:
        rows.append([interval, "(no report)"] + [""] * 7)
        return False
    out, n_samples, theory, theory_pre, misses = analyse(stalls, report, 0.8, r_pre)
    k = len(stalls)
    if other_first:
        target_ms = benchlib.median([(s["end_ns"] - s["split_ns"]) / 1e6 for s in stalls])
    else:
        target_ms = benchlib.median([(s["split_ns"] - s["start_ns"]) / 1e6 for s in stalls])
    total_ms = benchlib.median([(s["end_ns"] - s["start_ns"]) / 1e6 for s in stalls])
    sampler = (report.get("summary") or {}).get("sampler") or {}
    rows.append([
        interval,
        "%s (%s-%s)" % (benchlib.fmt(sum(n_samples) / len(n_samples) if n_samples else None),
                        min(n_samples) if n_samples else "-",
                        max(n_samples) if n_samples else "-"),
        "%.0f%%" % (100.0 * out["hit"] / k),
        "%.0f%%" % (100.0 * out["top1"] / k),
        "%.1f%%" % (100.0 * sum(theory) / len(theory)) if theory else "-",
        "%.1f%%" % (100.0 * sum(theory_pre) / len(theory_pre)) if theory_pre else "-",
        "%d/%d" % (out["matched"], k),
        "%.0f/%.0f ms" % (target_ms, total_ms),
        "%s/%s/%s" % (sampler.get("signal_timeouts", "-"), sampler.get("samples_failed", "-"),
                      sampler.get("samples_folded", "-")),
    ])
    if misses:
        notes.append("  %s: not top-1: %s" % (label, "; ".join(
            "%d x %s" % (n, why) for why, n in misses.most_common(6))))
    if out["no watchdog"]:
        notes.append("  %s: %d matched events without a watchdog object"
                     % (label, out["no watchdog"]))
    sys.stdout.write("  %s done\n" % label)
    sys.stdout.flush()
    return True


HEADERS = ["interval ms", "samples/stall (min-max)", "hit rate", "top-1", "theory",
           "theory(pre)", "events", "target/stall", "t/o/failed/folded"]


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    rpm = subprocess.run([args.exe, "--calibrate"], check=True, stdout=subprocess.PIPE,
                         text=True).stdout.strip()
    cmd = [args.exe, "--rounds-per-ms", rpm, "--stalls", str(args.stalls),
           "--gap-ms", args.gap_ms, "--seed", str(args.seed)]
    gap_max = int(args.gap_ms.split("-")[1])
    timeout = max(120, args.stalls * (200 + gap_max) * 5 // 1000)
    pre = args.pretrigger_ms
    print("attribution: %d stalls of 160 ms %s + 40 ms %s per interval, idle gaps %s ms, "
          "%s work rounds/ms (calibrated once)" % (args.stalls, TARGET, OTHER, args.gap_ms, rpm))
    print("config: JANKSCOPE_SAMPLE_MS=I (every stage) JANKSCOPE_THRESHOLD_MS=50 "
          "JANKSCOPE_MERGE_MS=0 JANKSCOPE_PRETRIGGER_MS=%d (sampling starts %d ms into a stall)"
          % (pre, pre))
    if problem:
        print("without the preload only: " + problem)
        try:
            benchlib.run(cmd, benchlib.baseline_env(), timeout, "without")
        except benchlib.RunFailed as e:
            print("FAILED: %s" % e)
            return 1
        print("SKIPPED the with-preload side: " + problem)
        return benchlib.SKIP
    print("preload: " + args.preload)
    sys.stdout.flush()

    rows, rows_rev, notes = [], [], []
    n_reports = n_runs = 0
    try:
        for interval in args.intervals:
            n_runs += 1
            n_reports += run_case(args, cmd, timeout, interval, False, rows, notes)
        for interval in args.reverse_intervals:
            n_runs += 1
            n_reports += run_case(args, cmd, timeout, interval, True, rows_rev, notes)
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    print()
    print("%s first (0-160 ms), then %s (160-200 ms):" % (TARGET, OTHER))
    benchlib.print_table(HEADERS, rows)
    if rows_rev:
        print()
        print("Reversed, %s first (0-40 ms), then %s (40-200 ms):" % (OTHER, TARGET))
        benchlib.print_table(HEADERS, rows_rev)
    print()
    if notes:
        print("Misses:")
        print("\n".join(notes))
        print()
    print("hit rate: a sampled stack of the stall's event contains %s; top-1: the event's "
          "culprit.function is %s." % (TARGET, TARGET))
    print("theory = 1 - (1 - 0.8)^n (samples at random times, docs/background.md); "
          "theory(pre) uses r = %s's share of the sampled part, after the %d ms pre-trigger "
          "(%.3f; reversed %.3f)."
          % (TARGET, pre, share_sampled(pre, False), share_sampled(pre, True)))
    print("jankscope samples at fixed delays from the stall's start (pre-trigger, then every I), "
          "not at random times: with few samples the order of the functions matters (reversed "
          "table). The project's target: top-1 >= 95% at 50 ms.")
    print("target/stall: measured median ms in %s / in the whole stall. "
          "t/o/failed/folded: summary.sampler signal_timeouts, samples_failed, samples_folded."
          % TARGET)
    print("preload %s: a JSON report was read in %d of %d runs" % (args.preload, n_reports, n_runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
