"""Helpers shared by the benchmark drivers: run a program without and with
the jankscope preload, parse its "RESULT key=value ..." lines, print tables.

Benchmarks print numbers; they never judge them.  A driver fails only when a
program fails (crash, bad exit status, no result), which with the preload
means the preload broke its host.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

SKIP = 77  # meson's "skipped" exit status


def threads(pid):
    """(tid, comm, /proc/PID/task/TID/) of each thread of `pid` still there
    (none if the process is gone)."""
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return
    for tid in tids:
        base = "/proc/%d/task/%s/" % (pid, tid)
        try:
            with open(base + "comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        yield int(tid), name, base


def quick():
    """BENCH_QUICK=1 asks for a short run (CI)."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


def baseline_env():
    """The environment for the run without jankscope: no preload, no settings."""
    env = {k: v for k, v in os.environ.items()
           if k != "LD_PRELOAD" and not k.startswith("JANKSCOPE")}
    return env


def arg_parser(doc, program):
    """A parser with the options of every driver: --exe (the benchmark
    program) and --preload; doc's first line describes the driver."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--exe", required=True, help="the %s program" % program)
    ap.add_argument("--preload", help="libjankscope-preload.so")
    return ap


def parse_runs_batches(doc, program, runs, quick_runs, batches, quick_batches, unit):
    """The options of the drivers that time batches of calls: --exe,
    --preload, --runs (per side) and --batches (of @unit each)."""
    quick_mode = quick()
    ap = arg_parser(doc, program)
    ap.add_argument("--runs", type=int, default=quick_runs if quick_mode else runs,
                    help="runs per side (default %d, quick %d)" % (runs, quick_runs))
    ap.add_argument("--batches", type=int, default=quick_batches if quick_mode else batches,
                    help="batches of %s per case (default %d, quick %d)"
                    % (unit, batches, quick_batches))
    args = ap.parse_args()
    if args.runs < 1 or args.batches < 1:
        ap.error("bad --runs or --batches")
    return args


def print_banner(program, args, unit, problem):
    """The first lines of a batch driver: what runs, and with which preload."""
    print("%s: %d batches of %s per case, %d runs per side"
          % (program, args.batches, unit, args.runs))
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    sys.stdout.flush()


def preload_env(preload, report_dir):
    """The environment for the run with jankscope: the report goes to a
    fresh temporary directory; other JANKSCOPE_* settings of the caller are
    kept (to benchmark e.g. JANKSCOPE_THRESHOLD_MS=1)."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env["LD_PRELOAD"] = os.path.abspath(preload)
    env["JANKSCOPE_REPORT"] = os.path.join(report_dir, "report-%p.json")
    return env


def preload_problem(preload):
    """None if the preload can be used, else why not."""
    if not preload:
        return "no preload given (build it, or pass --preload)"
    if not os.path.isfile(preload):
        return "preload %s does not exist (not built yet?)" % preload
    return None


def parse_results(text):
    """Each "RESULT k=v k=v" line as a dict (numbers converted)."""
    results = []
    for line in text.splitlines():
        if not line.startswith("RESULT "):
            continue
        row = {}
        for field in line.split()[1:]:
            key, _, value = field.partition("=")
            try:
                row[key] = float(value)
            except ValueError:
                row[key] = value
        results.append(row)
    return results


class RunFailed(Exception):
    pass


def run(cmd, env, timeout, label):
    """Run cmd, return its RESULT dicts; raise RunFailed with the output's
    tail if it fails or prints no result."""
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunFailed("%s: timed out after %d s" % (label, timeout))
    results = parse_results(proc.stdout)
    if proc.returncode != 0 or not results:
        status = ("killed by signal %d" % -proc.returncode if proc.returncode < 0
                  else "exit status %d" % proc.returncode)
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-15:]
        raise RunFailed("%s: %s, %d results\n    %s"
                        % (label, status, len(results), "\n    ".join(tail)))
    return results


class PreloadSide:
    """Runs with the preload, each in a fresh report directory, and counts
    the runs that left a report (a sign the preload was really active)."""

    def __init__(self, preload):
        self.preload = preload
        self.runs = 0
        self.reports = 0

    def run(self, cmd, timeout, label):
        report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
        try:
            results = run(cmd, preload_env(self.preload, report_dir), timeout, label)
            self.runs += 1
            if any(name.endswith(".json") for name in os.listdir(report_dir)):
                self.reports += 1
            return results
        finally:
            shutil.rmtree(report_dir, ignore_errors=True)

    def summary(self):
        return ("preload %s: a JSON report was written in %d of %d runs"
                % (self.preload, self.reports, self.runs))


def run_sides(i, side, cmd, timeout, prefix="", base=None):
    """Run number i (from 0) of cmd without the preload and with it (side,
    a PreloadSide; None: without only), alternating which goes first so
    slow drift of the machine does not favour one side.  Yields ("without"
    or "with", its RESULT dicts); raises RunFailed like run(), with prefix
    before the label ("without run 1").  `base`, a PreloadSide: the
    "without" side runs with that preload (another build, to compare two
    builds of jankscope in the same run)."""
    order = ("without", "with") if i % 2 == 0 else ("with", "without")
    for s in order:
        if s == "with" and side is None:
            continue
        label = "%s%s run %d" % (prefix, s, i + 1)
        if s == "with":
            yield s, side.run(cmd, timeout, label)
        elif base is not None:
            yield s, base.run(cmd, timeout, label)
        else:
            yield s, run(cmd, baseline_env(), timeout, label)


def finish(side, problem):
    """The last line of a driver and its exit status: SKIP when there was no
    preload to run with (problem says why), else 0."""
    if side is None:
        print("SKIPPED the with-preload side: " + problem)
        return SKIP
    print(side.summary())
    return 0


def median(values):
    return statistics.median(values) if values else float("nan")


def spread(values):
    return (max(values) - min(values)) if values else float("nan")


def paired(on, off):
    """Run i "with" minus run i "without" (run next to each other by
    run_sides): the machine's slow swings, which move both runs of a pair
    alike, cancel.  Returns their median and interquartile range (the
    middle half of the differences: their noise)."""
    diffs = [a - b for a, b in zip(on, off)]
    if not diffs:
        return float("nan"), float("nan")
    if len(diffs) < 4:
        return statistics.median(diffs), spread(diffs)
    q = statistics.quantiles(diffs, n=4)
    return statistics.median(diffs), q[2] - q[0]


def fmt(value, digits=1, sign=False):
    if value is None or value != value:  # None or NaN
        return "-"
    return ("%+.*f" if sign else "%.*f") % (digits, value)


def print_table(headers, rows, out=sys.stdout):
    """Plain text table; first column left-aligned, the others right."""
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(row):
        parts = [row[0].ljust(widths[0])]
        parts += [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        return "  ".join(parts).rstrip()

    out.write(line(headers) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for row in cells[1:]:
        out.write(line(row) + "\n")
    out.flush()


def read_report(report_dir):
    """The JSON report left in report_dir (the newest complete one; the
    jankscope-bench drivers point JANKSCOPE_REPORT at report-%p.json there),
    or None."""
    import json
    best = None
    for name in sorted(os.listdir(report_dir)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(report_dir, name)
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        if best is None or doc.get("final") and not best.get("final"):
            best = doc
    return best


def run_with_report(cmd, preload, settings, timeout, label):
    """Run cmd once with the preload and the JANKSCOPE_* settings given (a
    dict; they override the caller's), the report in a fresh temporary
    directory. Returns (RESULT dicts, the report as a dict or None); raises
    RunFailed like run()."""
    report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
    try:
        env = preload_env(preload, report_dir)
        env.update({k: str(v) for k, v in settings.items()})
        results = run(cmd, env, timeout, label)
        return results, read_report(report_dir)
    finally:
        shutil.rmtree(report_dir, ignore_errors=True)
