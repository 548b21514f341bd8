#!/usr/bin/env python3
"""Checks that jankscope is a harmless guest: programs run unchanged under the
preload, sources keep working, the report on disk is always a complete JSON
document (also while the app runs and when it is killed).
Usage: check_safety.py CHECK
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from jankscope_test import (
    MS, CheckFailed, Skip, app, asan_options, check, check_dispatch_part, check_equal, check_ms,
    check_ran_fine, clean_env, env_path, fact, main, only_event, preload_path, read_report,
    run_app, run_scenario, source_entries, source_entry, summarize, validate_report,
    validate_run_report)


def check_same_behaviour_glib(argv, expected_exit):
    """@argv, a GLib program, prints and exits the same with and without the
    preload (JANKSCOPE_REPORT set in both runs); it may write a report."""
    plain = run_app(argv, preload=False)
    guest = run_app(argv, preload=True)
    check_equal(plain.returncode, expected_exit, "exit code without the preload")
    check_equal(guest.returncode, plain.returncode, "exit code under the preload")
    check_equal(guest.stdout, plain.stdout, "stdout under the preload")
    check_equal(guest.stderr, plain.stderr, "stderr under the preload")
    return guest


def check_same_behaviour(argv, expected_exit):
    """Like check_same_behaviour_glib (), and @argv writes no report."""
    guest = check_same_behaviour_glib(argv, expected_exit)
    check_equal(os.listdir(guest.tmpdir), [], "files written under the preload")
    return guest


def test_sh_true():
    check_same_behaviour(["sh", "-c", "true"], 0)


def test_sh_output():
    check_same_behaviour(["sh", "-c", "echo out; echo err >&2; exit 7"], 7)


def test_plain_c():
    guest = check_same_behaviour([app("plain-c"), "one", "two words"], 3)
    check_equal(guest.stderr, "", "stderr")


def test_plain_c_no_glib():
    guest = check_same_behaviour([app("plain-c"), "--maps"], 3)
    check_equal(fact(guest, "libglib_mapped"), "0", "GLib mapped into a non-GLib program")
    check_equal(fact(guest, "core_mapped"), "0", "jankscope's core mapped into a non-GLib program")


def test_glib_output_unchanged():
    """A GLib program prints and exits the same (its pid and stall times
    aside) and the preload adds nothing to stderr."""
    def comparable(run):
        return [line for line in run.stdout.splitlines()
                if not line.startswith(("pid=", "stall="))]

    plain = run_scenario("single-200ms", preload=False, exit_code=9)
    guest = run_scenario("single-200ms", exit_code=9)
    check_ran_fine(plain, exit_code=9)
    check_ran_fine(guest, exit_code=9)
    check_equal(comparable(guest), comparable(plain), "stdout under the preload")
    check(os.path.exists(guest.report_path), "the report was not written at exit")
    check_equal(guest.report["final"], True, "final")


def test_through_shell():
    """The preload passes through a non-GLib shell to a GLib program, which
    writes the report (the shell writes nothing)."""
    exe = app("glib-scenarios")
    run = run_app(["sh", "-c", '"$0" single-200ms; exit 5', exe])
    check_equal(run.returncode, 5, "exit code")
    check_equal(run.stderr, "", "stderr")
    check_equal(os.listdir(run.tmpdir), ["report.json"], "files in the report directory")
    report = run.report
    validate_report(report, pid=int(fact(run, "pid")), exe=exe,
                    glib_version=fact(run, "glib_version"))
    only_event(report)


def test_idle_remove():
    baseline = run_scenario("idle-remove", preload=False, report=False)
    check_ran_fine(baseline)
    run = run_scenario("idle-remove")
    check_ran_fine(run)
    check_equal(fact(run, "remove_fresh_ok"), "1", "removal of fresh sources")
    check_equal(fact(run, "remove_dispatched_ok"), "1", "removal of dispatched sources")
    # The loop spins through ~10^6 dispatches a second: the collector may
    # drop records (and count them), which is fine here.
    report = validate_run_report(run, records_dropped=True)
    # The preload was active: it saw the idle and the timeout dispatches.
    check(report["summary"]["dispatches"] >= 9, "the preload saw almost no dispatches")


def test_exit_in_dispatch():
    """exit () called inside a dispatch: exit code kept, final report written."""
    run = run_scenario("exit-in-dispatch")
    check_ran_fine(run, exit_code=4)
    check_equal(fact(run, "scenario"), "exit-in-dispatch exiting", "the app's last words")
    report = validate_run_report(run)
    check_dispatch_part(only_event(report)["parts"][0], "exit-in-dispatch", "exit_in_dispatch_cb",
                        115, 150)


def test_no_loop():
    """A GLib program that never runs a main loop."""
    plain = run_scenario("no-loop", preload=False, exit_code=8)
    guest = run_scenario("no-loop", exit_code=8)
    check_ran_fine(plain, exit_code=8)
    check_ran_fine(guest, exit_code=8)
    check_equal(fact(guest, "text"), "no-loop-42", "the app's output")
    if os.path.exists(guest.report_path):
        report = validate_run_report(guest)
        check_equal(report["events"], [], "events")


def test_glib_tool():
    """A GLib tool of the system (gio) runs unchanged."""
    gio = shutil.which("gio")
    if gio is None:
        raise Skip("gio is not installed")
    guest = check_same_behaviour_glib([gio, "version"], 0)
    if os.path.exists(guest.report_path):
        validate_report(guest.report, pid=guest.pid)
        check_equal(guest.report["events"], [], "events")


def test_gio_local():
    """GLib and GIO loaded RTLD_LOCAL by a module of a program without GLib:
    they are not in the global scope that dlsym (RTLD_NEXT) searches, yet
    the module's main loop, idle and timeout run, and its synchronous D-Bus
    call reaches GIO through the preload's stand-in, with GIO's answer (a
    timeout: code 24), as without the preload."""
    guest = check_same_behaviour_glib([app("gio-plugin-host"), app("gio-plugin")], 0)
    check_equal(guest.stdout, "idle=1 timeout=1 code=24\n", "stdout")


def test_cxx_exceptions():
    """C++ exceptions thrown in a GLib callback are still caught."""
    guest = check_same_behaviour_glib([app("cxx-exceptions")], 5)
    check_equal(guest.stdout, "caught 100 exceptions in the loop, then 42\n", "stdout")


def test_source_churn():
    """Thousands of custom sources come and go: each finalize runs once,
    each dispatch reaches the app, and all are timed."""
    run = run_scenario("source-churn")
    check_ran_fine(run)
    check_equal(fact(run, "dispatched"), "2000", "dispatches the app saw")
    check_equal(fact(run, "finalized"), "4000", "finalize calls the app saw")
    report = validate_run_report(run)
    check_equal(source_entry(report, "churn")["count"], 2000, "churn dispatches timed")


def test_app_random():
    """An app that seeded GLib's global random numbers (g_random_set_seed)
    gets the same sequence with jankscope as without: jankscope never draws
    from the app's generator (its report files' temporary names included)."""
    run = run_scenario("seeded-random")
    check_ran_fine(run)
    check_equal(fact(run, "random_same"), "1000", "numbers the app drew as seeded, of 1000")
    report = validate_run_report(run)
    check(report.get("events"), "no event recorded: the 300 ms stall went unseen")


def test_dynamic_funcs():
    """Heap-allocated GSourceFuncs, freed and reallocated at the same
    address with another dispatch function: the right one runs (the app
    checks) and the time goes to the right function."""
    # ASan's quarantine keeps a freed block from being reused at once: the
    # app would get a new address for every table, never the same one.
    run = run_scenario("dynamic-funcs", extra_env=asan_options(
        quarantine_size_mb=0, thread_local_quarantine_size_kb=0))
    check_ran_fine(run)
    check_equal(fact(run, "dispatched"), "600", "dispatches the app saw")
    report = validate_run_report(run)
    counts = sorted(s["count"] for s in source_entries(report, "dynamic-funcs"))
    check_equal(counts, [300, 300], "dynamic-funcs dispatches timed, per dispatch function")


def test_fork_child():
    """fork () without exec: the child exits promptly, without writing over
    the parent's report; the parent goes on being measured."""
    run = run_scenario("fork-child")
    check_ran_fine(run)
    check_equal(fact(run, "forked_child_ok"), "1", "the forked child exited with 0")
    child_pid = int(fact(run, "child_pid"))
    report = validate_run_report(run)
    check_dispatch_part(only_event(report)["parts"][0], "fork-parent-stall",
                        "spawn_parent_stall_cb", 115, 150)
    files = sorted(os.listdir(run.tmpdir))
    check(files in (["report.json"], ["report.json", f"report.json.{child_pid}"]),
          f"files in the report directory: {files}")
    if len(files) == 2:
        child = read_report(os.path.join(run.tmpdir, files[1]))
        validate_report(child, pid=child_pid, final=None)


def test_source_closures():
    """GClosures on GLib's built-in sources (g_source_set_closure compares
    their funcs by address); criticals are fatal in the program."""
    exe = app("source-closures")
    run = run_app([exe])
    check_ran_fine(run)
    check_equal(fact(run, "closures_ran"), "4", "closures that ran")
    validate_report(run.report, pid=run.pid, exe=exe)


def test_fd_hygiene():
    """Nothing of jankscope's or GLib's exists before main: at main's first
    line the process has fds 0-2 only (what the harness passes), one thread
    and no core mapped. The app closes fds 3..1023, opens its own data file
    (fd 3) and a pipe, and runs a main loop with timeouts, idles from a
    worker thread and wake-ups: GLib's wake-up fd is created after, so its
    8-byte writes never reach the file and it never reads the pipe. The loop
    ran monitored; criticals and warnings are fatal."""
    exe = app("fd-hygiene")
    data_dir = tempfile.mkdtemp(prefix="jankscope-test-data-")
    try:
        data = os.path.join(data_dir, "data")
        run = run_app([exe, data], extra_env={"G_DEBUG": "fatal-criticals,fatal-warnings"},
                      timeout=30)
        check_ran_fine(run)
        check_equal(fact(run, "fds_at_main"), "0,1,2", "open fds at the top of main")
        check_equal(fact(run, "threads_at_main"), "1", "threads at the top of main")
        check_equal(fact(run, "core_mapped_at_main"), "0", "the core mapped at the top of main")
        check_equal(fact(run, "data_fd"), "3", "the app's data file descriptor")
        check_equal(fact(run, "ticks_ok"), "1", "the loop ran its timeouts")
        check_equal(fact(run, "data"), "OK", "the app's data file")
        check_equal(fact(run, "pipe"), "OK", "the app's pipe")
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    report = validate_run_report(run)
    check(report["summary"]["dispatches"] >= 5, "the loop's dispatches were not measured")


def test_custom_start():
    """A program whose own _start never calls __libc_start_main: the preload
    cannot see main () start and falls back to the first main-loop use, so
    its loop is still monitored."""
    try:
        exe = app("custom-start")
    except CheckFailed:
        raise Skip("custom-start is built on x86-64 only")
    run = run_app([exe], extra_env={"G_DEBUG": "fatal-criticals,fatal-warnings"})
    check_ran_fine(run)
    check_equal(fact(run, "done"), "1", "the program ran to its end")
    report = validate_run_report(run)
    check_dispatch_part(only_event(report)["parts"][0], "custom-start-stall",
                        "custom_start_stall_cb", 115, 150)


def gi_python():
    """A python3 with PyGObject: GLib loaded by dlopen, as in a Python app."""
    probe = "import gi; gi.require_version('GLib', '2.0'); from gi.repository import GLib"
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and os.path.exists(candidate) and subprocess.run(
                [candidate, "-c", probe], env=clean_env(), stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return candidate
    raise Skip("no python3 with PyGObject (Debian: python3-gi)")


def check_parent_and_child(run, parent_pid, child_pid):
    """The first monitored process of the run wrote the plain path, the GLib
    child it started PATH.CHILD_PID; both reports are complete."""
    files = sorted(os.listdir(run.tmpdir))
    check_equal(files, sorted(["report.json", f"report.json.{child_pid}"]),
                "files in the report directory")
    parent = read_report(run.report_path)
    validate_report(parent, pid=parent_pid)
    # The app's 120 ms stall (a Python callback: PyGObject's closure is what
    # jankscope can name).
    part = only_event(parent)["parts"][0]
    check_equal(part["type"], "dispatch", "type of the app's stall")
    check_ms(part["duration_ns"], 115, 400, "the app's stall")
    child = read_report(f"{run.report_path}.{child_pid}")
    validate_report(child, pid=child_pid, exe=app("glib-scenarios"))
    check_dispatch_part(only_event(child)["parts"][0], "single-200ms", "single_200ms_cb", 195, 260)


def run_gi_spawner(mode, through_shell=False):
    argv = [gi_python(), env_path("JANKSCOPE_TEST_GI_SPAWNER"), mode, app("glib-scenarios")]
    if through_shell:
        argv = ["sh", "-c", '"$@"; exit $?', "sh"] + argv
    run = run_app(argv, extra_env={"G_DEBUG": "fatal-criticals,fatal-warnings"})
    check_ran_fine(run)
    check_equal(fact(run, "child_ok"), "1", "the child ended well")
    return run, int(fact(run, "pid")), int(fact(run, "child_pid"))


def test_report_owner_pygobject():
    """A PyGObject app (GLib dlopen()ed, jankscope started late) spawns a GLib
    program with its environment: the app owns the report path, the child
    writes PATH.PID instead of overwriting it."""
    run, parent_pid, child_pid = run_gi_spawner("spawn")
    check_equal(parent_pid, run.pid, "the app's pid")
    check_parent_and_child(run, parent_pid, child_pid)


def test_report_owner_daemon():
    """The PyGObject app's child daemonizes (double fork, its parent exits)
    and runs a GLib loop: its parent chain no longer leads to the app, yet
    it writes PATH.PID, never PATH."""
    run, parent_pid, child_pid = run_gi_spawner("daemon")
    check(fact(run, "daemon_ppid") != str(parent_pid), "the daemon was not reparented")
    check_parent_and_child(run, parent_pid, child_pid)


def test_report_owner_shell():
    """`sh -c 'APP; exit $?'`: the shell, the run's first process, never loads
    GLib, so the PyGObject app below it owns the path (and its GLib child
    still writes PATH.PID)."""
    run, parent_pid, child_pid = run_gi_spawner("spawn", through_shell=True)
    check(parent_pid != run.pid, "the shell exec()ed the app instead of forking it")
    check_parent_and_child(run, parent_pid, child_pid)


class Started:
    """A test program running in the background with the preload."""

    def __init__(self, scenario):
        self.tmpdir = tempfile.mkdtemp(prefix="jankscope-test-")
        self.report_path = os.path.join(self.tmpdir, "report.json")
        env = clean_env({"LD_PRELOAD": preload_path(), "JANKSCOPE_REPORT": self.report_path})
        self.argv = [app("glib-scenarios"), scenario]
        self.proc = subprocess.Popen(self.argv, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.started = time.monotonic()

    def sleep_until(self, seconds):
        time.sleep(max(0.0, self.started + seconds - time.monotonic()))

    def finish(self, timeout=30):
        try:
            self.stdout, self.stderr = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise CheckFailed(f"{self.argv} did not end within {timeout} s")
        return self.proc.returncode

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for name in os.listdir(self.tmpdir):
            os.unlink(os.path.join(self.tmpdir, name))
        os.rmdir(self.tmpdir)


def check_killed(sig):
    """A 120 ms stall at 0.1 s; at 3 s the report already holds it; the
    process dies of @sig as it would without jankscope; the report stays a
    valid document holding the event."""
    started = Started("sigterm")
    try:
        started.sleep_until(3.0)
        check(started.proc.poll() is None, "the program ended before it was killed")
        report = read_report(started.report_path)
        validate_report(report, pid=started.proc.pid, final=False)
        event = only_event(report)
        check_dispatch_part(event["parts"][0], "sigterm", "timeline_stall_cb", 115, 150)
        started.proc.send_signal(sig)
        check_equal(started.finish(), -sig, "exit status (killed by the signal)")
        check("FAIL" not in started.stderr, f"stderr: {started.stderr}")
        after = read_report(started.report_path)
        validate_report(after, pid=started.proc.pid, final=None)
        check_equal(summarize(after["events"]), summarize(report["events"]),
                    "events after the kill")
    finally:
        started.cleanup()


def test_sigterm():
    check_killed(signal.SIGTERM)


def test_sigkill():
    check_killed(signal.SIGKILL)


def test_report_valid_while_running():
    """json-stream makes eight events 0.76 s apart; the report and its
    journal are read in a tight loop meanwhile: every read must be a
    complete document once the journal is folded in, what is on disk must
    change while the app runs (by journal lines, not by rewriting the whole
    report each time), and each event must be on disk within 1 s of its end
    (+ 0.25 s of slack for this reader); at the end only the final report is
    left."""
    started = Started("json-stream")
    try:
        reads = 0
        versions = set()  # the ids of the events on disk, at each read
        first_seen = {}  # event id -> CLOCK_MONOTONIC ns
        rewrites = set()  # report_ns of the whole report as read
        while started.proc.poll() is None:
            # Before the first write there is no report; once written, it is
            # only ever replaced (renamed over), so it never goes away again.
            # Asked before the read: asked after a failed read, the answer
            # could be "there" for a report written in between.
            if not os.path.exists(started.report_path):
                time.sleep(0.002)
                continue
            try:
                report = read_report(started.report_path)
            except CheckFailed as e:
                raise CheckFailed(f"read {reads + 1} of the report: {e}")
            now = time.monotonic_ns()  # CLOCK_MONOTONIC, the report's clock
            reads += 1
            if not report.get("final"):
                versions.add(tuple(e["id"] for e in report["events"]))
                rewrites.add(read_report(started.report_path, fold=False)["process"]["report_ns"])
            for event in report["events"]:
                first_seen.setdefault(event["id"], now)
            time.sleep(0.002)
        check_equal(started.finish(), 0, "exit code")
        check_equal(started.stderr, "", "stderr")
        final = read_report(started.report_path)
        validate_report(final, pid=started.proc.pid)
        events = final["events"]
        check(len(events) == 8, f"expected 8 events, got {summarize(events)}")
        check(reads >= 100, f"only {reads} reads of the report while the app ran")
        check(len(versions) >= 4, f"what is on disk did not change while the app ran: {versions}")
        check(len(rewrites) <= 2,
              f"the whole report was rewritten {len(rewrites)} times for 8 small events")
        for event in events[:-1]:
            seen = first_seen.get(event["id"])
            check(seen is not None, f"event {event['id']} never appeared before the exit")
            check(seen - event["end_ns"] <= 1250 * MS,
                  f"event {event['id']} reached the disk {(seen - event['end_ns']) / MS:.0f} ms"
                  f" after it ended (at most 1 s)")
        check_equal(os.listdir(started.tmpdir), ["report.json"], "files next to the report")
    finally:
        started.cleanup()


CHECKS = {
    "sh-true": test_sh_true,
    "sh-output": test_sh_output,
    "plain-c": test_plain_c,
    "plain-c-no-glib": test_plain_c_no_glib,
    "glib-output-unchanged": test_glib_output_unchanged,
    "through-shell": test_through_shell,
    "idle-remove": test_idle_remove,
    "sigterm": test_sigterm,
    "sigkill": test_sigkill,
    "report-valid-while-running": test_report_valid_while_running,
    "exit-in-dispatch": test_exit_in_dispatch,
    "no-loop": test_no_loop,
    "glib-tool": test_glib_tool,
    "gio-local": test_gio_local,
    "cxx-exceptions": test_cxx_exceptions,
    "source-churn": test_source_churn,
    "dynamic-funcs": test_dynamic_funcs,
    "app-random": test_app_random,
    "fork-child": test_fork_child,
    "source-closures": test_source_closures,
    "fd-hygiene": test_fd_hygiene,
    "custom-start": test_custom_start,
    "report-owner-pygobject": test_report_owner_pygobject,
    "report-owner-daemon": test_report_owner_daemon,
    "report-owner-shell": test_report_owner_shell,
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
