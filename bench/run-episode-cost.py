#!/usr/bin/env python3
"""Episode cost: jankscope's CPU and memory during long episodes, for two
builds side by side (a baseline preload, e.g. main's, and this one).

Runs bench/episode-app (see its header) with each preload in turn, at the
default sampling schedule:

  sustained  every 16 ms a callback works 30-60 ms, for --sustained-seconds
             (60): one episode of thousands of stalls
  hang       one callback works for --hang-seconds (300): one stall

with stacks that keep changing. Every 0.25 s it reads /proc: the CPU time
of the jankscope threads (the collector "jankscope", the watchdog
"jankscope-watch") and of the main thread, and the process's RSS; at the
end VmHWM (peak RSS) and the report. Printed per scenario and side:

  collector s      CPU of the collector thread (symbolizing, folding, the report)
  watchdog s       CPU of the watchdog thread (sampling)
  main s           CPU of the main thread (the app's work and the signal handler)
  handler ms       summary.sampler.handler_ns_total: the main thread's time in
                   jankscope's signal handler (the main-thread cost of sampling)
  peak RSS MiB     VmHWM; "without" is the program alone
  samples          summary.sampler.samples (dropped: samples_dropped)
  attributed       the episode's attributed_ns / duration_ns
  report KiB       the final report's size

`--scenario intermittent` runs another one instead (not part of the default
run):

  intermittent  an animation that janks by itself, for --intermittent-seconds
             (40): every 16 ms a callback works 1.5 ms, every 60th 52-84 ms
             through other stacks each time, deterministically: about one short
             episode a second (like gtk4-widget-factory on a slow VM, whose own
             jank varies too much from run to run to compare builds with).

It is measured over a window from --warmup (10) s after the start to the end
of the load, from schedstat (ns, exact; stat counts 10 ms ticks): per run and
thread (collector, watchdog, main) the CPU in ms per second and the
collector's wake-ups (context switches) per second; then per side the median
and the spread (min-max) over the runs, --reps (5) alternating pairs, and the
median of the pairs' differences.

    bench/run-episode-cost.py --exe build/bench/episode-app \\
        --preload build/src/libjankscope-preload.so \\
        --baseline-preload /tmp/main-build/src/libjankscope-preload.so

    bench/run-episode-cost.py --exe build/bench/episode-app \\
        --scenario intermittent --reps 5 \\
        --preload build/src/libjankscope-preload.so \\
        --baseline-preload /tmp/old-build/libjankscope-preload.so

(a preload loads the core from its own directory, so a copy of an old build's
build/src/*.so in a directory of its own keeps a baseline.) A/A, the same
preload on both sides, shows the benchmark's noise.

BENCH_QUICK=1: 10 s and 20 s (intermittent: 10 s, warm-up 4 s). Sides
alternate (--reps pairs), so a machine that drifts favours neither. Prints
numbers, never judges them; fails only when a program fails.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def thread_cpu(pid):
    """{name: cpu_s} of the jankscope threads, and "main" for the main thread."""
    out = {}
    for tid, name, base in benchlib.threads(pid):
        try:
            with open(base + "stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        cpu = (int(fields[11]) + int(fields[12])) / TICK
        if tid == pid:
            out["main"] = cpu
        elif name.startswith("jankscope"):
            out[name] = out.get(name, 0.0) + cpu
    return out


def status_kib(pid, key):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def thread_schedstat(pid):
    """{name: (on-CPU ns, context switches)} of the jankscope threads and
    "main", from /proc/PID/task/*/schedstat and status."""
    out = {}
    for tid, name, base in benchlib.threads(pid):
        if tid == pid:
            name = "main"
        elif not name.startswith("jankscope"):
            continue
        try:
            with open(base + "schedstat") as f:
                ns = int(f.read().split()[0])
            switches = 0
            with open(base + "status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:",
                                        "nonvoluntary_ctxt_switches:")):
                        switches += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
        ns0, sw0 = out.get(name, (0, 0))
        out[name] = (ns0 + ns, sw0 + switches)
    return out


def run_window(exe, seconds, warmup, preload):
    """One intermittent run; returns {thread: (CPU ms/s, switches/s)} over
    the window from `warmup` s after the start to the end of the load."""
    tmp = tempfile.mkdtemp(prefix="jankscope-episode-")
    if preload:
        env = benchlib.preload_env(preload, tmp)
    else:
        env = benchlib.baseline_env()
    proc = subprocess.Popen([exe, "intermittent", str(seconds)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    first = last = None
    while proc.poll() is None:
        elapsed = time.monotonic() - start
        if elapsed >= warmup and first is None:
            first = (time.monotonic(), thread_schedstat(proc.pid))
        elif first is not None and last is None and elapsed >= seconds + 0.1:
            last = (time.monotonic(), thread_schedstat(proc.pid))
        time.sleep(0.05)
    out, err = proc.communicate()
    reports = [n for n in os.listdir(tmp) if n.endswith(".json")]
    shutil.rmtree(tmp, ignore_errors=True)
    if proc.returncode != 0 or not benchlib.parse_results(out) or not first or not last:
        raise RuntimeError("%s intermittent failed (%s): %s" % (exe, proc.returncode, err[-2000:]))
    if preload and not reports:
        raise RuntimeError("%s intermittent: no report with %s" % (exe, preload))
    span = last[0] - first[0]
    result = {}
    for name, (ns, sw) in last[1].items():
        ns0, sw0 = first[1].get(name, (0, 0))
        result[name] = ((ns - ns0) / 1e6 / span, (sw - sw0) / span)
    return result


def intermittent(args, sides):
    """The intermittent scenario: per-run rows, then per side medians and
    spreads."""
    seconds, warmup = args.intermittent_seconds, args.warmup
    threads = (("jankscope", "collector"), ("jankscope-watch", "watchdog"), ("main", "main"))
    alone = run_window(args.exe, seconds, warmup, None)
    rows = [["without", "-", "-", "-", "%.2f" % alone.get("main", (0, 0))[0], "-"]]
    per_side = {name: [] for name, _ in sides}
    for rep in range(args.reps):
        order = sides if rep % 2 == 0 else list(reversed(sides))
        for name, preload in order:
            r = run_window(args.exe, seconds, warmup, preload)
            per_side[name].append(r)
            rows.append([name, "%d" % (rep + 1)]
                        + ["%.3f" % r.get(t, (0, 0))[0] for t, _ in threads]
                        + ["%.2f" % r.get("jankscope", (0, 0))[1]])
            sys.stdout.flush()
    print("intermittent %d s (1.5 ms every 16 ms, 52-84 ms every 60th), window %d-%d s, "
          "%d alternating pair(s); CPU in ms per second (schedstat)"
          % (seconds, warmup, seconds, args.reps))
    benchlib.print_table(["side", "run", "collector ms/s", "watchdog ms/s", "main ms/s",
                          "collector wakes/s"], rows)
    print()
    summary = []
    for name, _ in sides:
        runs = per_side[name]
        row = [name]
        for t, _ in threads:
            vals = [r.get(t, (0, 0))[0] for r in runs]
            row.append("%.3f (%.3f-%.3f)" % (benchlib.median(vals), min(vals), max(vals)))
        vals = [r.get("jankscope", (0, 0))[1] for r in runs]
        row.append("%.2f (%.2f-%.2f)" % (benchlib.median(vals), min(vals), max(vals)))
        summary.append(row)
    print("median (min-max) over the runs of each side:")
    benchlib.print_table(["side", "collector ms/s", "watchdog ms/s", "main ms/s",
                          "collector wakes/s"], summary)
    if len(sides) == 2:
        # Run i of one side next to run i of the other: the machine's slow
        # swings move both alike.
        cells = []
        for t, label in threads:
            base = [r.get(t, (0, 0))[0] for r in per_side[sides[0][0]]]
            this = [r.get(t, (0, 0))[0] for r in per_side[sides[1][0]]]
            med, iqr = benchlib.paired(this, base)
            cells.append("%s %+.3f (IQR %.3f)" % (label, med, iqr))
        print("paired (%s - %s), median of the pairs' differences, ms/s: %s"
              % (sides[1][0], sides[0][0], ", ".join(cells)))


def run_side(exe, scenario, seconds, preload):
    """One run; returns a dict of what was measured."""
    tmp = tempfile.mkdtemp(prefix="jankscope-episode-")
    report = os.path.join(tmp, "report.json")
    if preload:
        env = benchlib.preload_env(preload, tmp)
        env["JANKSCOPE_REPORT"] = report
        env["JANKSCOPE_EXIT_MS"] = "10000"
    else:
        env = benchlib.baseline_env()
    proc = subprocess.Popen([exe, scenario, str(seconds)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    cpu, hwm, rss = {}, 0, 0
    while proc.poll() is None:
        now = thread_cpu(proc.pid)
        if now:
            cpu = now
        hwm = max(hwm, status_kib(proc.pid, "VmHWM") or 0)
        rss = max(rss, status_kib(proc.pid, "VmRSS") or 0)
        time.sleep(0.25)
    out, err = proc.communicate()
    if proc.returncode != 0 or not benchlib.parse_results(out):
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError("%s %s failed (%s): %s" % (exe, scenario, proc.returncode, err[-2000:]))
    result = {"cpu": cpu, "hwm": hwm, "rss": rss}
    if preload:
        with open(report) as f:
            doc = json.load(f)
        sampler = doc["summary"]["sampler"]
        events = [e for e in doc["events"] if e.get("type") in ("dispatch", "iteration")]
        duration = sum(e["duration_ns"] for e in events)
        attributed = sum(e["attributed_ns"] for e in events)
        result.update({
            "samples": sampler["samples"],
            "dropped": sampler["samples_dropped"],
            "handler_ms": sampler["handler_ns_total"] / 1e6,
            "attributed": attributed / duration if duration else 0.0,
            "events": len(events),
            "report_kib": os.path.getsize(report) / 1024,
        })
    shutil.rmtree(tmp, ignore_errors=True)
    return result


def main():
    ap = benchlib.arg_parser(__doc__, "episode-app")
    ap.add_argument("--baseline-preload", help="the preload to compare with (e.g. main's)")
    ap.add_argument("--sustained-seconds", type=int, default=60)
    ap.add_argument("--hang-seconds", type=int, default=300)
    ap.add_argument("--intermittent-seconds", type=int, default=40)
    ap.add_argument("--warmup", type=float, default=10.0,
                    help="intermittent: seconds before the window starts (default 10)")
    ap.add_argument("--scenario", choices=("default", "intermittent"), default="default",
                    help="default: sustained and hang; intermittent: that one alone")
    ap.add_argument("--reps", type=int, default=None,
                    help="pairs of runs per scenario (default 1; intermittent 5)")
    args = ap.parse_args()
    if args.reps is None:
        args.reps = 5 if args.scenario == "intermittent" else 1
    if benchlib.quick():
        args.sustained_seconds, args.hang_seconds = 10, 20
        args.intermittent_seconds, args.warmup = 10, 4.0
    if args.scenario == "intermittent" and args.warmup >= args.intermittent_seconds:
        ap.error("--warmup must be shorter than --intermittent-seconds")
    problem = benchlib.preload_problem(args.preload)
    sides = []
    if args.baseline_preload:
        if benchlib.preload_problem(args.baseline_preload):
            print("baseline preload: " + benchlib.preload_problem(args.baseline_preload))
            return 1
        sides.append(("baseline", args.baseline_preload))
    if problem is None:
        sides.append(("this build", args.preload))

    if args.scenario == "intermittent":
        if sides:
            intermittent(args, sides)
        if problem is not None:
            print("SKIPPED this build's side: " + problem)
            return benchlib.SKIP
        return 0

    rows = []
    for scenario, seconds in (("sustained", args.sustained_seconds),
                              ("hang", args.hang_seconds)):
        alone = run_side(args.exe, scenario, seconds, None)
        rows.append([scenario, "without", "-", "-", "%.2f" % alone["cpu"].get("main", 0), "-",
                     "%.1f" % (alone["hwm"] / 1024), "-", "-", "-", "-"])
        for rep in range(args.reps):
            order = sides if rep % 2 == 0 else list(reversed(sides))
            for name, preload in order:
                r = run_side(args.exe, scenario, seconds, preload)
                rows.append([scenario, name,
                             "%.2f" % r["cpu"].get("jankscope", 0),
                             "%.2f" % r["cpu"].get("jankscope-watch", 0),
                             "%.2f" % r["cpu"].get("main", 0),
                             "%.1f" % r["handler_ms"],
                             "%.1f" % (r["hwm"] / 1024),
                             "%d" % r["samples"], "%d" % r["dropped"],
                             "%.1f%%" % (100 * r["attributed"]),
                             "%.0f" % r["report_kib"]])
                sys.stdout.flush()
    print("episodes: sustained %d s (a 30-60 ms callback every 16 ms), hang %d s; %d pair(s) "
          "per scenario" % (args.sustained_seconds, args.hang_seconds, args.reps))
    benchlib.print_table(["scenario", "side", "collector s", "watchdog s", "main s",
                          "handler ms", "peak RSS MiB", "samples", "dropped", "attributed",
                          "report KiB"], rows)
    if problem is not None:
        print("SKIPPED this build's side: " + problem)
        return benchlib.SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
