#!/usr/bin/env python3
"""jankscope installed the way a GNOME tool is: `meson install --destdir` of this build tree,
then the layout, the desktop files and the installed programs, moved elsewhere.

Usage: check_install.py CHECK  (layout, relocated; run by meson, suite "install", which passes
the build tree and the configured folders in the environment: JANKSCOPE_TEST_BUILD_ROOT,
JANKSCOPE_TEST_INSTALL_* below)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from jankscope_test import Skip, check, check_equal, clean_env, gtk_env, main

ENV = os.environ


def folder(name):
    """A configured folder (absolute, under the prefix) as installed under @root."""
    return ENV["JANKSCOPE_TEST_INSTALL_" + name].lstrip("/")


def install(root):
    out = subprocess.run(["meson", "install", "-C", ENV["JANKSCOPE_TEST_BUILD_ROOT"],
                          "--no-rebuild", "--quiet", "--destdir", root],
                         capture_output=True, text=True, timeout=300)
    check(out.returncode == 0, f"meson install --destdir failed: {out.stdout}{out.stderr}")


def installed(root, *parts):
    return os.path.join(root, *parts)


def check_layout():
    tmp = tempfile.mkdtemp(prefix="jankscope-install-")
    try:
        root = os.path.join(tmp, "dest")
        install(root)
        expect = [
            (folder("BINDIR"), "jankscope"),
            (folder("PKGLIBDIR"), "libjankscope-preload.so"),
            (folder("PKGLIBDIR"), "libjankscope-core.so"),
            (folder("PKGLIBDIR"), "libjankscope-api.so"),
            (folder("GTK3_MODULEDIR"), "libjankscope.so"),
            (folder("MANDIR"), "man1", "jankscope.1"),
            (folder("BASH_COMPLETION_DIR"), "jankscope"),
            (folder("DATADIR"), "doc", "jankscope", "README.md"),
            (folder("DATADIR"), "doc", "jankscope", "report-format.md"),
        ]
        viewer = ENV.get("JANKSCOPE_TEST_INSTALL_VIEWER") == "1"
        if viewer:
            expect += [
                (folder("LIBEXECDIR"), "jankscope", "jankscope-viewer"),
                (folder("PKGLIBDIR"), "libjankscope-gtk4.so"),
                (folder("MANDIR"), "man1", "jankscope-viewer.1"),
                (folder("DATADIR"), "applications", "org.jankscope.Viewer.desktop"),
                (folder("DATADIR"), "metainfo", "org.jankscope.Viewer.metainfo.xml"),
                (folder("DATADIR"), "icons", "hicolor", "scalable", "apps",
                 "org.jankscope.Viewer.svg"),
            ]
        for parts in expect:
            check(os.path.isfile(installed(root, *parts)), f"installed: /{os.path.join(*parts)}")

        # The GTK 3 module where GTK 3 looks, or GTK_PATH documented (README, jankscope.1).
        gtk3_libdir = ENV.get("JANKSCOPE_TEST_GTK3_LIBDIR", "")
        moduledir = "/" + folder("GTK3_MODULEDIR")
        if gtk3_libdir and moduledir != os.path.join(gtk3_libdir, "gtk-3.0", "modules"):
            with open(os.path.join(ENV["JANKSCOPE_TEST_SOURCE_ROOT"], "README.md")) as f:
                readme = f.read()
            check("GTK_PATH" in readme, "README says how GTK 3 finds a module in another prefix")

        # Only the viewer has a launcher: the demo is not installed unless asked for.
        applications = installed(root, folder("DATADIR"), "applications")
        launchers = sorted(os.listdir(applications)) if os.path.isdir(applications) else []
        demo = ENV.get("JANKSCOPE_TEST_INSTALL_DEMO") == "1"
        for name in launchers:
            with open(os.path.join(applications, name)) as f:
                text = f.read()
            if name != "org.jankscope.Viewer.desktop":
                check("\nNoDisplay=true\n" in text, f"{name} puts a launcher in the app grid")
        if not demo:
            check_equal([n for n in launchers if "Playground" in n], [], "the demo's desktop file")
            check(not os.path.exists(installed(root, folder("BINDIR"), "jankscope-playground")),
                  "the demo is installed without -Dinstall-demo=true")

        if viewer:
            for tool, args in (("desktop-file-validate", []),
                               ("appstreamcli", ["validate", "--no-net"])):
                if shutil.which(tool) is None:
                    raise Skip(f"{tool} is not installed (scripts/bootstrap-debian.sh)")
            out = subprocess.run(["desktop-file-validate",
                                  os.path.join(applications, "org.jankscope.Viewer.desktop")],
                                 capture_output=True, text=True)
            check(out.returncode == 0 and out.stdout.strip() == "",
                  f"desktop-file-validate: {out.stdout}{out.stderr}")
            out = subprocess.run(["appstreamcli", "validate", "--no-net",
                                  installed(root, folder("DATADIR"), "metainfo",
                                            "org.jankscope.Viewer.metainfo.xml")],
                                 capture_output=True, text=True)
            check(out.returncode == 0, f"appstreamcli validate: {out.stdout}{out.stderr}")

        # The manual pages render without a warning.
        if shutil.which("man"):
            for page in ["jankscope.1"] + (["jankscope-viewer.1"] if viewer else []):
                out = subprocess.run(["man", "--warnings", "-l",
                                      installed(root, folder("MANDIR"), "man1", page)],
                                     capture_output=True, text=True,
                                     env=dict(ENV, MANWIDTH="100", LC_ALL="C.UTF-8"))
                check(out.returncode == 0 and out.stderr == "", f"man {page}: {out.stderr}")
                check("ENVIRONMENT" in out.stdout or "jankscope view" in out.stdout,
                      f"man {page} renders")

        check_completion(root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def complete(root, *words):
    """COMPREPLY of the installed bash completion for @words (the last is being completed),
    in a bash without bash-completion's helpers (the completion must work with and without)."""
    cli = installed(root, folder("BINDIR"), "jankscope")
    script = installed(root, folder("BASH_COMPLETION_DIR"), "jankscope")
    quoted = " ".join("'" + w + "'" for w in (cli,) + words)
    program = (f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; "
               "_jankscope; printf '%s\\n' \"${COMPREPLY[@]}\"")
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", program],
                         capture_output=True, text=True, timeout=30)
    check(out.returncode == 0 and out.stderr == "", f"bash completion: {out.stderr}")
    return sorted(line for line in out.stdout.splitlines() if line)


def check_completion(root):
    cli = installed(root, folder("BINDIR"), "jankscope")
    top = subprocess.run([cli, "--help"], capture_output=True, text=True,
                         env=dict(ENV, LC_ALL="C")).stdout
    commands = re.findall(r"^  ([a-z][a-z-]*)  ", top.split("Commands:", 1)[1], re.M)
    check_equal(complete(root, ""), sorted(commands), "the commands completed")
    check_equal(complete(root, "ru"), ["run"], "a command completed")
    check_equal(complete(root, "run", "--v"), ["--view"], "an option of run completed")
    check_equal(complete(root, "export", "--fo"), ["--folded-prefix", "--folded-weight",
                                                   "--format"], "options of export completed")


def moved_install(tmp):
    """An install made into a DESTDIR, then moved to another folder: nothing may still point
    at the DESTDIR (nor at the configured prefix, where nothing is installed)."""
    install(os.path.join(tmp, "dest"))
    os.rename(os.path.join(tmp, "dest"), os.path.join(tmp, "moved"))
    return os.path.join(tmp, "moved")


def loaded_core(stderr):
    """The libjankscope-core.so files the dynamic loader opened (LD_DEBUG=files)."""
    return sorted({os.path.normpath(p)
                   for p in re.findall(r"file=(\S*libjankscope-core\.so) \[", stderr)})


def installed_env(extra):
    """clean_env () without the build tree's library path: only the install is used."""
    env = clean_env(extra)
    env.pop("LD_LIBRARY_PATH", None)
    return env


def check_relocated():
    tmp = tempfile.mkdtemp(prefix="jankscope-relocated-")
    try:
        root = moved_install(tmp)
        pkglibdir = installed(root, folder("PKGLIBDIR"))
        report = os.path.join(tmp, "report.json")

        # The installed preload on a GLib program: it finds the core beside itself.
        env = installed_env({"LD_PRELOAD": os.path.join(pkglibdir, "libjankscope-preload.so"),
                         "JANKSCOPE_REPORT": report, "LD_DEBUG": "files"})
        out = subprocess.run([ENV["JANKSCOPE_TEST_GLIB_SCENARIOS"], "single-200ms"], env=env,
                             capture_output=True, text=True, timeout=60)
        check_equal(out.returncode, 0, "the GLib program's exit code")
        check_equal(loaded_core(out.stderr), [os.path.join(pkglibdir, "libjankscope-core.so")],
                    "the core loaded")
        with open(report) as f:
            doc = json.load(f)
        check_equal(doc["process"]["mode"], "preload", "the report's mode")
        check(any(e["duration_ns"] >= 190_000_000 for e in doc["events"]),
              f"the 200 ms stall is in the report: {doc['events']}")
        os.unlink(report)

        # The installed CLI runs the app with the installed preload.
        cli = installed(root, folder("BINDIR"), "jankscope")
        out = subprocess.run([cli, "run", "--", "sh", "-c", 'echo "$LD_PRELOAD"'],
                             env=installed_env({"LC_ALL": "C.UTF-8"}), capture_output=True,
                             text=True, timeout=60)
        check_equal(out.stdout.strip(), os.path.join(pkglibdir, "libjankscope-preload.so"),
                    "the preload jankscope run gives the app")

        # GTK_MODULES=jankscope with GTK_PATH (README, "GTK_MODULES"): the module finds the
        # core two folders up, in LIBDIR/jankscope.
        gtk3_app = ENV.get("JANKSCOPE_TEST_GTK3_STALL")
        if not gtk3_app:
            raise Skip("no GTK 3 test program (built without GTK 3)")
        moduledir = installed(root, folder("GTK3_MODULEDIR"))
        env = installed_env(gtk_env())
        env.update({"GTK_PATH": os.path.dirname(moduledir), "GTK_MODULES": "jankscope",
                    "JANKSCOPE_REPORT": report, "LD_DEBUG": "files"})
        out = subprocess.run([gtk3_app], env=env, capture_output=True, text=True, timeout=60)
        check_equal(out.returncode, 0, "the GTK 3 program's exit code")
        check_equal(loaded_core(out.stderr), [os.path.join(pkglibdir, "libjankscope-core.so")],
                    "the core the GTK 3 module loaded")
        with open(report) as f:
            check_equal(json.load(f)["process"]["mode"], "gtk-module", "the report's mode")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main({"layout": check_layout, "relocated": check_relocated}))
