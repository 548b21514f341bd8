#!/usr/bin/env python3
"""What jankscope's GTK 4 UI module costs its host (README, "The jankscope window").

Two benchmarks, every side in the same run, alternating order per round:

armed     bench/ui-startup (a GTK 4 window, quits after its 2nd frame):
          start-up time to the 2nd frame, VmRSS and VmHWM then, for
            none   no preload
            ui=0   the preload, JANKSCOPE_UI=0 (the UI module not loaded)
            armed  the preload as shipped (module loaded and armed:
                   Inspector page registered, shortcut installed)
open      tests/apps/frames-gtk4 animation (redraws every frame for 5 s):
          the app's CPU time (user+sys, all threads), max RSS, frames it
          drew, and its frame time p50/p95/p99 from jankscope's own report
          (the jankscope window's frame clock is left out of it), for
            closed  the preload, window closed (armed)
            open    the preload, JANKSCOPE_INSPECTOR=1 (the window open,
                    refreshing every 500 ms)
busy      tests/apps/frames-gtk4 busy (every frame spins 30-100 ms for 8 s:
          the main loop is never idle), with tests/ui/ui-start-shim (--shim,
          observing only) timing the window's refreshes on the app's clock:
          the slow frames the app made, the main-thread time that did not
          go to them (ms per second of the busy phase: GTK's own frame work,
          jankscope, the window; open minus closed is what the window
          takes, measured without its own meter), the same in the main
          thread's CPU time (what a loaded machine does not inflate: time
          the thread waited for a CPU is not in it), the window's UI-cost meter,
          its refreshes with data in the busy phase and the longest gap
          between them, the process's CPU time, for
            closed  the preload, window closed (armed)
            open    the preload, JANKSCOPE_INSPECTOR=1

--baseline LABEL=PRELOAD (another build's preload, e.g. an older commit's;
repeatable): one more side, "open, LABEL", in `open` and `busy`.

Prints numbers; never judges them. Needs a display (xvfb-run).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from benchlib import SKIP, baseline_env, fmt, median, print_table, quick, spread

GTK = {"GSK_RENDERER": "cairo", "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1",
       "GTK_A11Y": "none"}


def cpu_run(cmd, env, timeout):
    """Runs cmd under os.wait4: (stdout, stderr, cpu s, max RSS kB)."""
    t0 = time.monotonic_ns()
    env = dict(env, BENCH_T0_NS=str(t0))
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err, text=True)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("%s: timed out" % cmd)
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        o, e = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (cmd, proc.returncode, (o + e)[-2000:]))
    return o, e, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def result(text):
    for line in text.splitlines():
        if line.startswith("RESULT "):
            return {k: float(v) for k, v in (f.split("=") for f in line.split()[1:])}
    raise SystemExit("no RESULT line in: " + text[-500:])


def fact(text, key):
    for line in text.splitlines():
        if line.startswith(key + "="):
            return line.split("=", 1)[1]
    return None


def side_env(preload, report_dir, extra):
    env = baseline_env()
    env.update(GTK)
    if preload:
        env["LD_PRELOAD"] = os.path.abspath(preload)
        env["JANKSCOPE_REPORT"] = os.path.join(report_dir, "report.json")
    env.update(extra)
    return env


def bench_armed(exe, preload, runs):
    # JANKSCOPE_DEBUG=1: the core logs its own start-up time on the main
    # thread (loading and arming the module is part of it).
    sides = [("none", None, {}), ("ui=0", preload, {"JANKSCOPE_UI": "0", "JANKSCOPE_DEBUG": "1"}),
             ("armed", preload, {"JANKSCOPE_DEBUG": "1"})]
    data = {name: [] for name, _, _ in sides}
    for i in range(runs):
        order = sides if i % 2 == 0 else list(reversed(sides))
        for name, pre, extra in order:
            tmp = tempfile.mkdtemp(prefix="jankscope-bench-")
            try:
                out, err, _, _ = cpu_run([exe], side_env(pre, tmp, extra), 60)
                row = result(out)
                m = re.search(r"start-up took (\d+) µs", err)
                row["core_us"] = float(m.group(1)) if m else float("nan")
                data[name].append(row)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for name, _, _ in sides:
        r = data[name]
        rows.append([name,
                     fmt(median([x["startup_us"] / 1000 for x in r])),
                     fmt(spread([x["startup_us"] / 1000 for x in r])),
                     fmt(median([x["rss_kb"] / 1024 for x in r])),
                     fmt(median([x["hwm_kb"] / 1024 for x in r])),
                     fmt(median([x["core_us"] / 1000 for x in r]), 2)])
    print("armed: bench/ui-startup, %d runs per side (medians; spread = max - min)" % runs)
    print_table(["side", "start-up ms", "spread ms", "VmRSS MiB", "VmHWM MiB",
                 "core start-up ms"], rows)


def open_sides(preload, baselines):
    sides = [("closed", preload, {}), ("open", preload, {"JANKSCOPE_INSPECTOR": "1"})]
    for label, other in baselines:
        sides.append(("open, " + label, other, {"JANKSCOPE_INSPECTOR": "1"}))
    return sides


def bench_open(app, preload, runs, baselines=()):
    sides = open_sides(preload, baselines)
    data = {name: [] for name, _, _ in sides}
    for i in range(runs):
        order = sides if i % 2 == 0 else list(reversed(sides))
        for name, pre, extra in order:
            tmp = tempfile.mkdtemp(prefix="jankscope-bench-")
            try:
                out, err, cpu, rss = cpu_run([app, "animation"], side_env(pre, tmp, extra), 90)
                with open(os.path.join(tmp, "report.json")) as f:
                    frames = json.load(f)["summary"]["frames"]
                data[name].append({"cpu": cpu, "rss": rss / 1024,
                                   "drawn": float(fact(out, "frames_drawn") or 0),
                                   "p50": frames.get("p50_ns", 0) / 1e6,
                                   "p95": frames.get("p95_ns", 0) / 1e6,
                                   "p99": frames.get("p99_ns", 0) / 1e6,
                                   "slow": frames.get("slow", 0)})
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for name, _, _ in sides:
        r = data[name]
        rows.append([name] + [fmt(median([x[k] for x in r]), 2 if k == "cpu" else 1)
                              for k in ("cpu", "rss", "drawn", "p50", "p95", "p99", "slow")])
    print("open: frames-gtk4 animation (5 s), %d runs per side (medians)" % runs)
    print_table(["side", "CPU s", "max RSS MiB", "frames drawn", "p50 ms", "p95 ms", "p99 ms",
                 "slow frames"], rows)


def busy_row(out, cpu):
    """One run of frames-gtk4 busy: its facts and the shim's."""
    start, end = int(fact(out, "busy_start")), int(fact(out, "busy_end"))
    spent = int(fact(out, "busy_spent"))
    seconds = (end - start) / 1e9
    # inspector_refresh=NS,DATA,SNAPSHOT,WAIT (tests/ui/ui-start-shim.c)
    refreshes = [int(f[0]) for f in (line.split("=", 1)[1].split(",")
                                     for line in out.splitlines()
                                     if line.startswith("inspector_refresh="))
                 if f[1] == "1" and int(f[0]) <= end]
    gaps = [b - a for a, b in zip(refreshes, refreshes[1:] + [end])]
    meter = fact(out, "inspector_ui_cost_at_end")
    m = re.match(r"([0-9.]+)", meter or "")
    return {"frames": float(fact(out, "busy_frames")),
            "other": (end - start - spent) / 1e6 / seconds,
            "other_cpu": (int(fact(out, "busy_cpu")) - int(fact(out, "busy_spent_cpu")))
            / 1e6 / seconds,
            "meter": float(m.group(1)) if m else float("nan"),
            "refreshes": float(len(refreshes)) if fact(out, "inspector_painted") else float("nan"),
            "gap": max(gaps) / 1e6 if refreshes else float("nan"),
            "cpu": cpu}


def bench_busy(app, preload, shim, runs, baselines=()):
    sides = open_sides(preload, baselines)
    data = {name: [] for name, _, _ in sides}
    for i in range(runs):
        order = sides if i % 2 == 0 else list(reversed(sides))
        for name, pre, extra in order:
            tmp = tempfile.mkdtemp(prefix="jankscope-bench-")
            try:
                env = side_env(pre, tmp, extra)
                env["LD_PRELOAD"] += " " + os.path.abspath(shim)
                env["JANKSCOPE_TEST_UI_START"] = "observe"
                out, _, cpu, _ = cpu_run([app, "busy"], env, 90)
                data[name].append(busy_row(out, cpu))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for name, _, _ in sides:
        r = data[name]
        rows.append([name] + [fmt(median([x[k] for x in r]), 2 if k == "cpu" else 1)
                              for k in ("frames", "other", "other_cpu", "meter", "refreshes",
                                        "gap", "cpu")]
                    + [fmt(max(x["gap"] for x in r), 0)])
    print("busy: frames-gtk4 busy (8 s of 30-100 ms frames), %d runs per side (medians; "
          "refreshes: with data, in the busy phase)" % runs)
    print_table(["side", "app frames", "other ms/s", "other CPU ms/s", "UI-cost meter ms/s",
                 "refreshes", "longest gap ms", "CPU s", "worst gap ms"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--startup-exe", required=True, help="bench/ui-startup")
    ap.add_argument("--frames-app", required=True, help="tests/apps/frames-gtk4")
    ap.add_argument("--preload", help="libjankscope-preload.so")
    ap.add_argument("--shim", help="tests/ui/libui-start-shim.so (the busy benchmark)")
    ap.add_argument("--baseline", action="append", default=[], metavar="LABEL=PRELOAD",
                    help="another build's preload: one more side (repeatable)")
    ap.add_argument("--only", choices=("armed", "open", "busy"), help="one benchmark only")
    ap.add_argument("--runs", type=int, default=3 if quick() else 10)
    args = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        print("no DISPLAY: run under xvfb-run")
        return SKIP
    if not args.preload or not os.path.isfile(args.preload):
        print("no preload: nothing to compare")
        return SKIP
    baselines = []
    for spec in args.baseline:
        label, sep, path = spec.partition("=")
        if not sep or not os.path.isfile(path):
            raise SystemExit("--baseline %s: not LABEL=PRELOAD with an existing file" % spec)
        baselines.append((label, path))
    if args.only in (None, "armed"):
        bench_armed(args.startup_exe, args.preload, args.runs)
        print()
    if args.only in (None, "open"):
        bench_open(args.frames_app, args.preload, max(2, args.runs // 2), baselines)
        print()
    if args.only in (None, "busy"):
        if args.shim and os.path.isfile(args.shim):
            bench_busy(args.frames_app, args.preload, args.shim, max(2, args.runs // 2),
                       baselines)
        else:
            print("busy: no --shim (tests/ui/libui-start-shim.so): skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
