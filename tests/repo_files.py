"""The files of the project's tree, for the checks that read all of them
(check_references.py, check_style.py)."""

import os
import subprocess


def tracked_files(root):
    """Paths (relative to @root) of the files git tracks; every file under
    @root when it is not a git checkout (hidden folders and meson build
    trees left out: their logs quote the checks)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                             and not os.path.isdir(os.path.join(folder, d, "meson-info")))
            for name in sorted(names):
                files.append(os.path.relpath(os.path.join(folder, name), root))
        return files
