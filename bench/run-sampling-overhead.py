#!/usr/bin/env python3
"""Runs sampling-overhead (one callback of fixed CPU work: a sustained stall)
without the preload and with it in several sampling settings, alternating,
and prints the CPU time each costs and what jankscope's report says it did.

    run-sampling-overhead.py --exe build/bench/sampling-overhead \\
                             --preload build/src/libjankscope-preload.so

Configurations (JANKSCOPE_* settings of the caller apply to the with-preload
ones, these override them):

  without       no preload
  sampling=0    JANKSCOPE_SAMPLING=0 JANKSCOPE_SAMPLE_MS=10: the watchdog
                times the stall and reads /proc, but takes no stack
  default       JANKSCOPE_SAMPLE_MS unset (5,50,100: 5 ms for the first
                500 ms of a stall, 50 ms until 2 s, then 100 ms)
  10 ms, 50 ms  JANKSCOPE_SAMPLE_MS=10, =50
  10 ms timer=0 JANKSCOPE_SAMPLE_MS=10 JANKSCOPE_SAMPLE_TIMER=0: the
                watchdog signals the main thread at each sample, as in GTK
                module mode (the side-by-side baseline of the CPU-time timer)

--warmup-ms W (default 500, 0: none): every run first stalls W ms and idles
1.5 s, and only the second stall is measured.  jankscope's once-per-run work
(at the first stall the collector loads the symbols and debug information of
the modules on the stack: ~50-200 ms with libc6-dbg's compressed DWARF) then
falls outside the measurement, which is the per-sample cost of a long stall.
"jankscope %" is jankscope's own CPU over the measured stall: its two threads
(schedstat) plus the signal handler's time on the main thread (the report's
handler_ns_total, the measured stall's share of it by its samples), relative
to the process CPU without the preload.  Unlike "cpu %" it is not a
difference of two noisy totals, but it leaves out what jankscope costs the
app's own code indirectly (caches): "main cpu %" is where that would show.

Exit status: 0 done; 77 no preload (the baseline is still printed);
1 a run failed.  BENCH_QUICK=1 makes it short (CI): 1 s of work, 2 runs.
"""

import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

CONFIGS = [
    ("without", None),
    ("sampling=0", {"JANKSCOPE_SAMPLING": "0", "JANKSCOPE_SAMPLE_MS": "10"}),
    ("default", {}),
    ("10 ms", {"JANKSCOPE_SAMPLE_MS": "10"}),
    ("50 ms", {"JANKSCOPE_SAMPLE_MS": "50"}),
    ("10 ms timer=0", {"JANKSCOPE_SAMPLE_MS": "10", "JANKSCOPE_SAMPLE_TIMER": "0"}),
]


def parse_args():
    quick = benchlib.quick()
    ap = benchlib.arg_parser(__doc__, "sampling-overhead")
    ap.add_argument("--runs", type=int, default=2 if quick else 5,
                    help="runs per configuration (default 5, quick 2)")
    ap.add_argument("--work-ms", type=int, default=1000 if quick else 3000,
                    help="CPU work of the stall (default 3000, quick 1000)")
    ap.add_argument("--warmup-ms", type=int, default=200 if quick else 500,
                    help="CPU work of a first, unmeasured stall (default 500, quick 200; 0: none)")
    args = ap.parse_args()
    if args.runs < 1 or args.work_ms < 10 or args.warmup_ms < 0:
        ap.error("bad --runs, --work-ms or --warmup-ms")
    return args


def sampler_numbers(report, warmup):
    """Per-run numbers from summary.sampler (None when missing).  With a
    warm-up stall, the samples and handler time are the measured (last)
    stall's: its event's samples_total, and that share of the handler's
    total."""
    if not report:
        return None
    s = (report.get("summary") or {}).get("sampler")
    if not s:
        return None
    samples = s.get("samples")
    share = 1.0
    if warmup and samples:
        stalls = [e for e in report.get("events") or [] if e.get("samples_total")]
        last = max(stalls, key=lambda e: e.get("start_ns") or 0) if stalls else None
        if last is None:
            return None
        share = last["samples_total"] / samples
        samples = last["samples_total"]
    return {
        "samples": samples,
        "folded": s.get("samples_folded"),
        "handler_ms": share * (s.get("handler_ns_total") or 0) / 1e6,
        "handler_max_us": (s.get("handler_ns_max") or 0) / 1e3,
        "watchdog_ms": (s.get("watchdog_cpu_ns") / 1e6
                        if isinstance(s.get("watchdog_cpu_ns"), int) and s["watchdog_cpu_ns"] >= 0
                        else None),
        "timeouts": s.get("signal_timeouts"),
        "failed": s.get("samples_failed"),
        "stalls": s.get("stalls"),
    }


def main():
    args = parse_args()
    problem = benchlib.preload_problem(args.preload)

    loops = subprocess.run([args.exe, "--calibrate", str(args.work_ms)], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    configs = CONFIGS if not problem else CONFIGS[:1]
    warmup_loops = int(loops) * args.warmup_ms // args.work_ms
    print("sampling-overhead: one callback of %s rounds of work (~%d ms of CPU, calibrated once), "
          "%d runs per configuration, rotating the order" % (loops, args.work_ms, args.runs))
    if warmup_loops:
        print("each run first stalls %d rounds (~%d ms) and idles 1.5 s, unmeasured"
              % (warmup_loops, args.warmup_ms))
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    sys.stdout.flush()

    cmd = [args.exe, "--loops", loops]
    if warmup_loops:
        cmd += ["--warmup", str(warmup_loops)]
    timeout = max(60, (args.work_ms + args.warmup_ms) * 20 // 1000)
    runs = {name: [] for name, _ in configs}
    reports = {name: [] for name, _ in configs}
    n_reports = 0
    try:
        for i in range(args.runs):
            order = configs[i % len(configs):] + configs[:i % len(configs)]
            for name, settings in order:
                label = "%s run %d" % (name, i + 1)
                if settings is None:
                    res = benchlib.run(cmd, benchlib.baseline_env(), timeout, label)
                else:
                    res, report = benchlib.run_with_report(cmd, args.preload, settings,
                                                           timeout, label)
                    n_reports += report is not None
                    reports[name].append(sampler_numbers(report, warmup_loops))
                row = dict(res[0])
                # jankscope's threads, by name (schedstat on-CPU time over the stall)
                row["collector_s"] = sum(t["cpu_s"] for t in res[1:] if t.get("comm") == "jankscope")
                row["watchdog_s"] = sum(t["cpu_s"] for t in res[1:]
                                        if t.get("comm") == "jankscope-watch")
                row["other_threads_s"] = sum(t["cpu_s"] for t in res[1:]
                                             if not t.get("main")
                                             and t.get("comm") not in ("jankscope", "jankscope-watch"))
                runs[name].append(row)
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1

    med = benchlib.median
    base = {k: med([r[k] for r in runs["without"]]) for k in ("cpu_s", "main_cpu_s", "wall_s")}
    off = None
    if "sampling=0" in runs:
        off = {k: med([r[k] for r in runs["sampling=0"]]) for k in ("cpu_s", "main_cpu_s", "wall_s")}

    def pct(value, ref):
        return 100.0 * (value - ref) / ref if ref else None

    rows = []
    for name, _ in configs:
        r = runs[name]
        cpu = med([x["cpu_s"] for x in r])
        main_cpu = med([x["main_cpu_s"] for x in r])
        wall = med([x["wall_s"] for x in r])
        cpu_nc = med([x["cpu_s"] - x.get("collector_s", 0) for x in r])
        rows.append([name, benchlib.fmt(cpu, 3), benchlib.fmt(main_cpu, 3), benchlib.fmt(wall, 3),
                     benchlib.fmt(pct(cpu, base["cpu_s"]), 2, sign=True),
                     benchlib.fmt(pct(cpu_nc, base["cpu_s"]), 2, sign=True),
                     benchlib.fmt(pct(main_cpu, base["main_cpu_s"]), 2, sign=True),
                     benchlib.fmt(pct(wall, base["wall_s"]), 2, sign=True),
                     benchlib.fmt(pct(cpu, off["cpu_s"]), 2, sign=True) if off and name != "without" else "-",
                     benchlib.fmt(100.0 * benchlib.spread([x["cpu_s"] for x in r]) / cpu, 2)])
    print()
    print("Time around g_main_loop_run (the stall), medians of %d runs:" % args.runs)
    benchlib.print_table(["config", "cpu s", "main cpu s", "wall s", "cpu %", "cpu % -collector",
                          "main cpu %",
                          "wall %", "cpu % vs sampling=0", "spread %"], rows)

    if not problem:
        rows = []
        for name, _ in configs[1:]:
            nums = [n for n in reports[name] if n]
            main_cpu = med([x["main_cpu_s"] for x in runs[name]])
            wall = med([x["wall_s"] for x in runs[name]])
            collector_ms = 1e3 * med([x["collector_s"] for x in runs[name]])
            watchdog_ms = 1e3 * med([x["watchdog_s"] for x in runs[name]])
            other_ms = 1e3 * med([x["other_threads_s"] for x in runs[name]])
            main_added_ms = 1e3 * (main_cpu - base["main_cpu_s"])
            if not nums:
                rows.append([name, "(no report)"] + [""] * 12)
                continue

            def m(key):
                vals = [n[key] for n in nums if n.get(key) is not None]
                return med(vals) if vals else None
            samples, handler_ms = m("samples"), m("handler_ms")
            own_ms = (collector_ms + watchdog_ms + handler_ms) if handler_ms is not None else None
            rows.append([name, benchlib.fmt(samples, 0), benchlib.fmt(m("folded"), 0),
                         benchlib.fmt(samples / wall if samples else None, 1),
                         benchlib.fmt(handler_ms, 2),
                         benchlib.fmt(1e3 * handler_ms / samples if samples else None, 2),
                         benchlib.fmt(m("handler_max_us"), 1),
                         benchlib.fmt(100.0 * handler_ms / 1e3 / main_cpu
                                      if handler_ms is not None else None, 3),
                         benchlib.fmt(main_added_ms, 1, sign=True),
                         benchlib.fmt(watchdog_ms, 1),
                         benchlib.fmt(collector_ms, 1),
                         benchlib.fmt(other_ms, 1),
                         benchlib.fmt(100.0 * own_ms / 1e3 / base["cpu_s"]
                                      if own_ms is not None else None, 2),
                         "%s/%s" % (benchlib.fmt(m("timeouts"), 0), benchlib.fmt(m("failed"), 0))])
        print()
        print("Where the time goes (medians; samples and handler from the reports' summary.sampler, "
              "threads from /proc/self/task/*/schedstat over the stall):")
        benchlib.print_table(["config", "samples", "folded", "samples/s", "handler ms",
                              "us/sample", "max us", "handler % main", "main +ms",
                              "watchdog ms", "collector ms", "other thr ms", "jankscope %",
                              "t/o / failed"], rows)
    print()
    print("cpu = process user+sys CPU (all threads), main cpu = the main thread's CPU clock "
          "(the signal handler runs on it), wall = wall time; all around g_main_loop_run.")
    print("cpu % etc.: median with - median without, relative to without; spread = (slowest - "
          "fastest) / median: a difference smaller than the spread is noise.")
    print("cpu % -collector: the same without the collector thread's CPU (without a warm-up "
          "stall mostly a one-time cost: the symbolizer's set-up at the first stall).")
    print("handler % main = handler_ns_total / main cpu: the direct cost on the main thread "
          "(main +ms: main cpu with - without, handler and cache effects, noisy); watchdog / "
          "collector ms: CPU of the threads 'jankscope-watch' (probes /proc, sends signals) and "
          "'jankscope' (drains, symbolizes, writes reports) during the stall.")
    print("jankscope % = (watchdog + collector + handler) / process cpu without: jankscope's own "
          "CPU over the measured stall.")
    print("The project's target: <= 0.5% of the process at 10 ms.")
    if problem:
        print("SKIPPED the with-preload side: " + problem)
        return benchlib.SKIP
    print("preload %s: a JSON report was read in %d of %d runs"
          % (args.preload, n_reports, args.runs * (len(configs) - 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
