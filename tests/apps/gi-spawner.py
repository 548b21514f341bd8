#!/usr/bin/env python3
"""gi-spawner.py - a PyGObject app that spawns GLib programs

  gi-spawner.py spawn GLIB_SCENARIOS
      From its main loop, spawns `GLIB_SCENARIOS single-200ms` with
      GLib.spawn_async (same environment) and waits for it in a child watch.
  gi-spawner.py daemon GLIB_SCENARIOS
      From its main loop, forks a child that daemonizes (setsid, a second
      fork, the middle process exits) and execs `GLIB_SCENARIOS single-200ms`
      once it has been reparented; waits until that daemon has ended (its
      stdout, a pipe, reaches end of file).

GLib is loaded by dlopen (python3 links no GLib; gi's extension module
does), so jankscope starts late here: at the first dispatch on the main
thread. After the child has ended the app stalls for 120 ms in a timeout
("gi-parent-stall") and quits. It prints child_pid=PID, child_ok=1 when the
child exited with 0, and for the daemon its ppid as seen before exec
(daemon_ppid=...), which is not this app's pid.
"""

import os
import sys
import time

import gi

gi.require_version("GLib", "2.0")
from gi.repository import GLib  # noqa: E402

loop = GLib.MainLoop()


def parent_stall():
    end = time.monotonic() + 0.120
    while time.monotonic() < end:
        pass
    GLib.timeout_add(50, quit_loop)
    return GLib.SOURCE_REMOVE


def quit_loop():
    loop.quit()
    return GLib.SOURCE_REMOVE


def child_done(ok):
    print(f"child_ok={1 if ok else 0}", flush=True)
    GLib.timeout_add(50, parent_stall)


def spawn(exe):
    def exited(pid, status):
        GLib.spawn_close_pid(pid)
        child_done(os.waitstatus_to_exitcode(status) == 0)

    pid, _, _, _ = GLib.spawn_async([exe, "single-200ms"],
                                    flags=GLib.SpawnFlags.DO_NOT_REAP_CHILD
                                    | GLib.SpawnFlags.STDOUT_TO_DEV_NULL)
    print(f"child_pid={pid}", flush=True)
    GLib.child_watch_add(GLib.PRIORITY_DEFAULT, pid, exited)
    return GLib.SOURCE_REMOVE


def daemon(exe):
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(read_end)
            os.setsid()
            middle = os.getpid()
            if os.fork() != 0:
                os._exit(0)
            # The daemon: wait until the middle process is gone, so that
            # jankscope sees a broken parent chain, as under dbus-launch.
            deadline = time.monotonic() + 10
            while os.getppid() == middle and time.monotonic() < deadline:
                time.sleep(0.005)
            print(f"daemon_ppid={os.getppid()}", flush=True)
            os.dup2(write_end, 1)
            os.close(write_end)
            os.execv(exe, [exe, "single-200ms"])
        finally:
            os._exit(4)
    os.close(write_end)
    _, status = os.waitpid(middle, 0)
    chunks = []

    def readable(fd, condition):
        data = os.read(fd, 4096)
        if data:
            chunks.append(data)
            return GLib.SOURCE_CONTINUE
        os.close(fd)
        facts = dict(line.split("=", 1) for line in b"".join(chunks).decode().splitlines()
                     if "=" in line)
        print(f"child_pid={facts.get('pid', 0)}", flush=True)
        child_done(os.waitstatus_to_exitcode(status) == 0
                   and facts.get("scenario") == "single-200ms done")
        return GLib.SOURCE_REMOVE

    GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, read_end,
                          GLib.IOCondition.IN | GLib.IOCondition.HUP, readable)
    return GLib.SOURCE_REMOVE


def give_up():
    print("FAIL: gi-spawner did not end within 30 s", file=sys.stderr, flush=True)
    os._exit(99)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("spawn", "daemon"):
        print("usage: gi-spawner.py spawn|daemon GLIB_SCENARIOS", file=sys.stderr)
        return 2
    exe = sys.argv[2]
    print(f"pid={os.getpid()}", flush=True)
    GLib.timeout_add(20, spawn if sys.argv[1] == "spawn" else daemon, exe)
    GLib.timeout_add_seconds(30, give_up)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
