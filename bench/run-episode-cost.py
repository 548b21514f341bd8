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

    bench/run-episode-cost.py --exe build/bench/episode-app \\
        --preload build/src/libjankscope-preload.so \\
        --baseline-preload /tmp/main-build/src/libjankscope-preload.so

BENCH_QUICK=1: 10 s and 20 s. Sides alternate (--reps pairs), so a machine
that drifts favours neither. Prints numbers, never judges them; fails only
when a program fails.
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
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for tid in tids:
        base = "/proc/%d/task/%s/" % (pid, tid)
        try:
            with open(base + "comm") as f:
                name = f.read().strip()
            with open(base + "stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        cpu = (int(fields[11]) + int(fields[12])) / TICK
        if int(tid) == pid:
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
    ap.add_argument("--reps", type=int, default=1, help="pairs of runs per scenario")
    args = ap.parse_args()
    if benchlib.quick():
        args.sustained_seconds, args.hang_seconds = 10, 20
    problem = benchlib.preload_problem(args.preload)
    sides = []
    if args.baseline_preload:
        if benchlib.preload_problem(args.baseline_preload):
            print("baseline preload: " + benchlib.preload_problem(args.baseline_preload))
            return 1
        sides.append(("baseline", args.baseline_preload))
    if problem is None:
        sides.append(("this build", args.preload))

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
