#!/usr/bin/env python3
"""Soak: does jankscope's cost stay flat over a long run with many events?

Runs bench/soak-app (a GLib program that stalls every INTERVAL ms, see its
header) twice at the same time, without and with the preload, for SECONDS,
and every --every seconds reads from /proc: each side's RSS, and for the
jankscope threads of the monitored side (threads named jankscope*) their CPU
time and the bytes they wrote (wchar of /proc/PID/task/TID/io), plus the size
of the report and its journal. At the end it prints a table over time and
the figures that matter: RSS growth after the warm-up, the jankscope threads'
CPU as a share of one core, and bytes written per event.

    bench/run-soak.py --exe build/bench/soak-app \
        --preload build/src/libjankscope-preload.so --seconds 1800 --interval-ms 1000

BENCH_QUICK=1 runs 40 s. Prints numbers, never judges them; fails only when
a program fails.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def jankscope_threads(pid):
    """{name: (cpu_s, wchar)} of the threads named jankscope*."""
    out = {}
    for _tid, name, base in benchlib.threads(pid):
        if not name.startswith("jankscope"):
            continue
        try:
            with open(base + "stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICK
            wchar = 0
            with open(base + "io") as f:
                for line in f:
                    if line.startswith("wchar:"):
                        wchar = int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
        old = out.get(name, (0.0, 0))
        out[name] = (old[0] + cpu, old[1] + wchar)
    return out


def file_size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def main():
    ap = benchlib.arg_parser(__doc__, "soak-app")
    ap.add_argument("--seconds", type=int, default=1800)
    ap.add_argument("--interval-ms", type=int, default=1000)
    ap.add_argument("--every", type=int, default=30, help="seconds between readings")
    args = ap.parse_args()
    if benchlib.quick():
        args.seconds, args.every = 40, 5

    problem = benchlib.preload_problem(args.preload)
    report_dir = tempfile.mkdtemp(prefix="jankscope-soak-")
    report = os.path.join(report_dir, "report.json")
    cmd = [args.exe, str(args.seconds), str(args.interval_ms)]
    base = subprocess.Popen(cmd, env=benchlib.baseline_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    mon = None
    if problem is None:
        env = benchlib.preload_env(args.preload, report_dir)
        env["JANKSCOPE_REPORT"] = report
        mon = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)

    rows = []
    start = time.monotonic()
    prev_cpu = 0.0
    first = True
    while base.poll() is None or (mon is not None and mon.poll() is None):
        time.sleep(0.5 if first else args.every)
        first = False
        t = time.monotonic() - start
        threads = jankscope_threads(mon.pid) if mon is not None else {}
        cpu = sum(c for c, _ in threads.values())
        wchar = sum(w for _, w in threads.values())
        rows.append({
            "t": t,
            "rss_base": rss_kib(base.pid),
            "rss_mon": rss_kib(mon.pid) if mon is not None else None,
            "cpu": cpu,
            "cpu_delta": cpu - prev_cpu,
            "wchar": wchar,
            "report": file_size(report),
            "journal": file_size(report + ".journal"),
        })
        prev_cpu = cpu
        if t > args.seconds + 120:
            break

    out_base, err_base = base.communicate(timeout=60)
    results = benchlib.parse_results(out_base)
    if base.returncode != 0 or not results:
        print("baseline failed: %s %s" % (base.returncode, err_base[-2000:]))
        return 1
    print("soak: %d s, a stall every %d ms, readings every %d s"
          % (args.seconds, args.interval_ms, args.every))
    print("baseline: %d stalls" % results[0]["stalls"])
    if mon is None:
        print("SKIPPED the with-preload side: " + problem)
        return benchlib.SKIP
    out_mon, err_mon = mon.communicate(timeout=60)
    mres = benchlib.parse_results(out_mon)
    if mon.returncode != 0 or not mres:
        print("with jankscope failed: %s %s" % (mon.returncode, err_mon[-2000:]))
        return 1

    table = []
    for r in rows:
        if r["rss_mon"] is None:
            continue
        table.append(["%.0f" % r["t"], r["rss_base"] or "-", r["rss_mon"],
                      "%.2f" % r["cpu_delta"], "%.1f" % (r["wchar"] / 1e6),
                      "%.2f" % (r["report"] / 1e6), "%.2f" % (r["journal"] / 1e6)])
    benchlib.print_table(["t (s)", "RSS without (KiB)", "RSS with (KiB)",
                          "jankscope CPU in step (s)", "written (MB)", "report (MB)",
                          "journal (MB)"], table)

    doc = None
    try:
        with open(report) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("cannot read the final report: %s" % e)
    events = doc["summary"]["events_total"] if doc else 0
    live = [r for r in rows if r["rss_mon"] is not None]
    last = live[-1]
    # Warm-up: the first tenth of the run (at least 60 s when there is room).
    warm = next((r for r in live if r["t"] >= min(60, args.seconds / 10)), live[0])
    later = [r for r in live if r["t"] >= warm["t"]]
    print()
    print("stalls with jankscope: %d; events in its report: %d" % (mres[0]["stalls"], events))
    print("RSS with jankscope: %d KiB after warm-up (t=%.0f s), %d KiB at the end, "
          "max %d KiB: growth %+d KiB"
          % (warm["rss_mon"], warm["t"], last["rss_mon"], max(r["rss_mon"] for r in later),
             last["rss_mon"] - warm["rss_mon"]))
    print("RSS without: %d KiB after warm-up, %d KiB at the end"
          % (warm["rss_base"] or 0, later[-1]["rss_base"] or 0))
    span = last["t"] - warm["t"]
    if span > 0:
        print("jankscope threads' CPU after warm-up: %.2f s in %.0f s = %.2f%% of a core"
              % (last["cpu"] - warm["cpu"], span, 100 * (last["cpu"] - warm["cpu"]) / span))
    print("jankscope threads' CPU over the run: %.2f s = %.2f%% of a core"
          % (last["cpu"], 100 * last["cpu"] / max(last["t"], 1)))
    print("bytes written by jankscope: %.1f MB, %.1f KB per event"
          % (last["wchar"] / 1e6, last["wchar"] / 1e3 / max(events, 1)))
    shutil.rmtree(report_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
