#!/usr/bin/env python3
"""Counts how often each thread of an idle app wakes up, without and with
the jankscope preload, alternating, in the same run.

    run-wakeups.py --exe build/bench/idle-app --preload build/src/libjankscope-preload.so

Each run starts idle-app (a plain GLib loop, then a GTK 4 window: --apps),
waits until it is ready and settled, and reads voluntary_ctxt_switches of
every thread in /proc/PID/task/*/status at the start and the end of a
--seconds window: a thread's wake-ups (it ran after sleeping).  --tick-ms
adds a timeout that does nothing that often (an idle desktop app that still
wakes: 0 is a truly idle one).  The GTK 4 app needs a display (xvfb-run).

Prints per app and side the median wake-ups per second of the main thread
and of each jankscope thread, and the jankscope threads' share of the main
thread's.  --against: the "without" side runs another build's preload.
Exit status: 0 done; 77 no preload; 1 a run failed.
"""

import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

SETTLE_S = 1.5  # after "ready": start-up, the first report written


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "idle-app")
    ap.add_argument("--runs", type=int, default=2 if quick else 5, help="runs per side (5)")
    ap.add_argument("--seconds", type=float, default=3 if quick else 10,
                    help="the window counted, s (10)")
    ap.add_argument("--apps", default="glib,gtk4", help="glib, gtk4 or both (default)")
    ap.add_argument("--tick-ms", type=int, default=0, help="the app's own timeout (0: none)")
    ap.add_argument("--against", help="the baseline side's preload (default: none)")
    args = ap.parse_args()
    if args.runs < 1 or args.seconds <= 0:
        ap.error("bad --runs or --seconds")
    return args


def switches(pid):
    """{thread name: voluntary context switches} (names made unique)."""
    threads = {}
    for tid, name, base in sorted(benchlib.threads(pid)):
        try:
            with open(base + "status") as f:
                count = next(int(line.split()[1]) for line in f
                             if line.startswith("voluntary_ctxt_switches:"))
        except (OSError, StopIteration):
            continue
        if tid == pid:
            name = "main"
        key, n = name, 2
        while key in threads:
            key, n = f"{name}#{n}", n + 1
        threads[key] = count
    return threads


def one_run(exe, app, seconds, tick_ms, env):
    """{thread: wake-ups per second} of one run."""
    proc = subprocess.Popen([exe, app, str(int(seconds + SETTLE_S + 2)), str(tick_ms)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:
            if line.strip() == "ready":
                break
        else:
            raise benchlib.RunFailed(f"{app}: ended before it was ready: {proc.stderr.read()}")
        time.sleep(SETTLE_S)
        before = switches(proc.pid)
        time.sleep(seconds)
        after = switches(proc.pid)
        out, err = proc.communicate(timeout=60)
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    if proc.returncode != 0:
        raise benchlib.RunFailed(f"{app}: exit status {proc.returncode}: {err.strip()[-500:]}")
    return {name: (after[name] - before[name]) / seconds for name in after if name in before}


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)
    print("idle-app: %d runs per side, %.0f s counted, app tick %s"
          % (args.runs, args.seconds, f"{args.tick_ms} ms" if args.tick_ms else "none"))
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    if args.against:
        print("without = preload " + args.against)
    sys.stdout.flush()
    rows = []
    try:
        for app in args.apps.split(","):
            per_side = {"without": [], "with": []}
            for i in range(args.runs):
                order = ("without", "with") if i % 2 == 0 else ("with", "without")
                for side in order:
                    if side == "with" and problem:
                        continue
                    preload = args.preload if side == "with" else args.against
                    report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
                    try:
                        env = (benchlib.preload_env(preload, report_dir) if preload
                               else benchlib.baseline_env())
                        per_side[side].append(one_run(args.exe, app, args.seconds, args.tick_ms,
                                                      env))
                    finally:
                        shutil.rmtree(report_dir, ignore_errors=True)
            for side in ("without", "with"):
                runs = per_side[side]
                if not runs:
                    continue
                names = sorted({n for r in runs for n in r},
                               key=lambda n: (n != "main", not n.startswith("jankscope"), n))
                main_rate = benchlib.median([r.get("main", 0) for r in runs])
                for name in names:
                    if name != "main" and not name.startswith("jankscope"):
                        continue
                    values = [r.get(name, 0) for r in runs]
                    med = benchlib.median(values)
                    share = ("-" if name == "main" else
                             "%.0f%%" % (100 * med / main_rate) if main_rate > 0 else
                             "-")
                    rows.append([app, side, name, benchlib.fmt(med, 2),
                                 benchlib.fmt(benchlib.spread(values), 2), share])
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1
    print()
    benchlib.print_table(["app", "side", "thread", "wake-ups/s", "spread", "of main's"], rows)
    print()
    print("wake-ups/s: median over the runs of voluntary context switches per second "
          "in the window; spread = max - min")
    return 0 if not problem else benchlib.SKIP


if __name__ == "__main__":
    sys.exit(main())
