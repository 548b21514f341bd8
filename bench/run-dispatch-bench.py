#!/usr/bin/env python3
"""Runs dispatch-overhead without and with the jankscope preload, alternating,
and prints the median cost per dispatch and per iteration of both and the
difference: what jankscope adds.

    run-dispatch-bench.py --exe build/bench/dispatch-overhead \\
                          --preload build/src/libjankscope-preload.so

    run-dispatch-bench.py --exe build/bench/dispatch-overhead --gdk-threads \
                          --against main/build/src/libjankscope-preload.so \
                          --preload build/src/libjankscope-preload.so

--against: the "without" side runs with another build's preload, to compare
two builds in the same run.  --gdk-threads: the idles are GDK 3's
gdk_threads_add_idle () ones (dispatch-overhead --gdk-threads).
--idle-thread: both sides have a second, sleeping thread, as every GTK app
has (glibc's multi-threaded paths are then paid without jankscope too).

--interleave N: each run holds both sides in one process (dispatch-overhead
--interleave): blocks of N iterations on the context jankscope watches and
on a private one, alternating, and their paired difference.  Runs without
the preload give that difference with nothing watching (the A/A control,
ideally 0); runs with it, plus what watching costs; the table subtracts
one from the other.  On a noisy VM this resolves a few ns where separate
processes spread by hundreds.  It leaves out what the preload's stand-ins
cost both contexts alike (forwarding): the separate runs include that.

Exit status: 0 done; 77 no preload (the baseline is still printed);
1 a run failed.  BENCH_QUICK=1 makes it short (CI).
"""

import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

MODES = ("oneshot", "repeat", "batch", "attach")


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "dispatch-overhead")
    ap.add_argument("--runs", type=int, default=3 if quick else 5,
                    help="runs per side and mode (default 5, quick 3)")
    ap.add_argument("--count", type=int, default=200000 if quick else 1000000,
                    help="dispatches per run (default 1000000, quick 200000)")
    ap.add_argument("--work-ns", type=int, default=1000, help="work per dispatch (1000)")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of "
                    + ", ".join(MODES))
    ap.add_argument("--against", help="the baseline side's preload (default: none)")
    ap.add_argument("--gdk-threads", action="store_true",
                    help="idles added with GDK 3's gdk_threads_add_idle ()")
    ap.add_argument("--idle-thread", action="store_true",
                    help="a second, sleeping thread on both sides (dispatch-overhead --idle-thread)")
    ap.add_argument("--interleave", type=int, default=0, metavar="N",
                    help="both sides in one process, in blocks of N iterations (0: off)")
    args = ap.parse_args()
    args.modes = [m for m in args.modes.split(",") if m]
    bad = [m for m in args.modes if m not in MODES]
    if bad or args.runs < 1 or args.count < 1 or args.interleave < 0 \
            or (args.interleave and args.count // args.interleave < 2):
        ap.error("bad --modes, --runs, --count or --interleave")
    return args


METRICS = ("ns/dispatch", "ns/iteration", "loop ns/dispatch", "loop ns/iteration",
           "cpu ns/dispatch", "main cpu ns/dispatch")


def metrics(result):
    """Wall time per dispatch and per iteration, with and without the
    calibrated work ("loop": what GLib, and jankscope, cost), and CPU time:
    all threads' (jankscope's own threads count too) and the main thread's
    alone (what the app's own latency pays)."""
    n = result["dispatches"]
    loop = result["ns_per_dispatch"] - result["work_ns"]
    return {
        "ns/dispatch": result["ns_per_dispatch"],
        "ns/iteration": result["ns_per_iteration"],
        "loop ns/dispatch": loop,
        "loop ns/iteration": loop * n / result["iterations"],
        "cpu ns/dispatch": (result["cpu_user_s"] + result["cpu_sys_s"]) * 1e9 / n,
        "main cpu ns/dispatch": result["main_cpu_ns"] / n,
    }


def command(args, mode, spins):
    """One run of dispatch-overhead in `mode`, the same for both sides."""
    cmd = [args.exe, "--mode", mode, "--count", str(args.count), "--spins", spins]
    if args.interleave:
        cmd += ["--interleave", str(args.interleave)]
    if args.gdk_threads:
        cmd.append("--gdk-threads")
    if args.idle_thread:
        cmd.append("--idle-thread")
    return cmd


def run_interleaved(args, spins, side, base, problem):
    """--interleave: per mode, runs without and with the preload (alternating),
    each the paired difference of the two contexts in one process.  With
    `base` (--against) the "without" runs have that build's preload: its
    watching cost against this build's."""
    samples = {(m, s): [] for m in args.modes for s in ("without", "with")}
    timeout = max(120, args.count * args.work_ns * 40 // 10**9)
    try:
        for i in range(args.runs):
            for mode in args.modes:
                cmd = command(args, mode, spins)
                for s, results in benchlib.run_sides(i, side, cmd, timeout, mode + " ", base):
                    samples[(mode, s)].append(results[0])
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    rows = []
    for mode in args.modes:
        off = [r["paired_ns"] for r in samples[(mode, "without")]]
        on = [r["paired_ns"] for r in samples[(mode, "with")]]
        se = [r["paired_se"] for r in samples[(mode, "with")]]
        added = benchlib.median(on) - benchlib.median(off) if on else None
        rows.append([mode,
                     benchlib.fmt(benchlib.median([r["default_ns"] for r in samples[(mode, "without")]])),
                     benchlib.fmt(benchlib.median(off), sign=True),
                     benchlib.fmt(benchlib.spread(off)),
                     benchlib.fmt(benchlib.median(on) if on else None, sign=True),
                     benchlib.fmt(benchlib.spread(on) if on else None),
                     benchlib.fmt(benchlib.median(se) if on else None),
                     benchlib.fmt(added, sign=True)])
    print()
    benchlib.print_table(["mode", "ns/iteration", "against" if base else "A/A", "spread",
                          "watched", "spread", "SE in run",
                          "watching adds" if base is None else "difference"], rows)
    print()
    print("per run: blocks of %d iterations on the default and on a private context, "
          "alternating, %d pairs;" % (args.interleave, args.count // args.interleave))
    print("A/A = median over runs without the preload of (default - private), per iteration;")
    print("watched = the same with the preload; SE in run = its standard error within a run")
    print("(median over runs); watching adds = watched - A/A.  The preload's forwarding, paid")
    print("by both contexts alike, is not in it (the runs without --interleave include it).")
    if base is not None:
        print("against = the same with --against's preload: difference = this build's watching "
              "cost minus that build's.")
    return benchlib.finish(side, problem)


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    side = None if problem else benchlib.PreloadSide(args.preload)
    base = None
    if args.against:
        if benchlib.preload_problem(args.against):
            print("FAILED: --against: " + benchlib.preload_problem(args.against))
            return 1
        base = benchlib.PreloadSide(args.against)

    # One calibration for every run, so both sides do exactly the same work.
    spins = subprocess.run([args.exe, "--calibrate", "--work-ns", str(args.work_ns)],
                           check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    print("dispatch-overhead: %d dispatches per run, %d runs per side, %s busy-loop rounds "
          "(~%d ns) of work per dispatch" % (args.count, args.runs, spins, args.work_ns))
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    if base is not None:
        print('"without" runs with: ' + args.against)
    sys.stdout.flush()
    if args.interleave:
        return run_interleaved(args, spins, side, base, problem)

    samples = {(m, s): [] for m in args.modes for s in ("without", "with")}
    iterations = {}
    timeout = max(120, args.count * args.work_ns * 20 // 10**9)
    try:
        for i in range(args.runs):
            for mode in args.modes:
                cmd = command(args, mode, spins)
                for s, results in benchlib.run_sides(i, side, cmd, timeout, mode + " ", base):
                    res = results[0]
                    samples[(mode, s)].append(metrics(res))
                    iterations[(mode, s)] = int(res["iterations"])
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    rows = []
    for mode in args.modes:
        for k, metric in enumerate(METRICS):
            off = [m[metric] for m in samples[(mode, "without")]]
            on = [m[metric] for m in samples[(mode, "with")]]
            added = benchlib.median(on) - benchlib.median(off) if on else None
            best = min(on) - min(off) if on else None
            pair, pair_iqr = benchlib.paired(on, off) if on else (None, None)
            pct = 100.0 * added / benchlib.median(off) if on else None
            rows.append([mode if k == 0 else "", metric,
                         benchlib.fmt(benchlib.median(off)),
                         benchlib.fmt(benchlib.median(on) if on else None),
                         benchlib.fmt(added, sign=True), benchlib.fmt(pct, sign=True),
                         benchlib.fmt(best, sign=True),
                         benchlib.fmt(pair, sign=True), benchlib.fmt(pair_iqr),
                         benchlib.fmt(benchlib.spread(off)),
                         benchlib.fmt(benchlib.spread(on) if on else None)])
    print()
    benchlib.print_table(["mode", "metric", "without", "with", "added", "added %",
                          "added(best)", "paired", "paired IQR", "spread w/o", "spread with"],
                         rows)
    print()
    for mode in args.modes:
        print("%s: %s dispatches in %s iterations per run" % (
            mode, args.count, iterations.get((mode, "without"), "?")))
    print("without/with/added: medians of %d runs; added(best) = fastest with - fastest without;"
          % args.runs)
    print("loop = time minus the calibrated work (GLib's own cost, plus jankscope's);")
    print("paired = median over i of (with run i - without run i), run next to each other, so the")
    print("machine's slow swings cancel; paired IQR = the middle half of those differences;")
    print("spread = slowest - fastest run (noise: an 'added' smaller than it is not significant).")
    return benchlib.finish(side, problem)


if __name__ == "__main__":
    sys.exit(main())
