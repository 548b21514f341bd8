"""Helpers shared by the benchmark drivers: run a program without and with
the jankscope preload, parse its "RESULT key=value ..." lines, print tables.

Benchmarks print numbers; they never judge them.  A driver fails only when a
program fails (crash, bad exit status, no result), which with the preload
means the preload broke its host.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile

SKIP = 77  # meson's "skipped" exit status


def quick():
    """BENCH_QUICK=1 asks for a short run (CI)."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


def baseline_env():
    """The environment for the run without jankscope: no preload, no settings."""
    env = {k: v for k, v in os.environ.items()
           if k != "LD_PRELOAD" and not k.startswith("JANKSCOPE")}
    return env


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


def median(values):
    return statistics.median(values) if values else float("nan")


def spread(values):
    return (max(values) - min(values)) if values else float("nan")


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
