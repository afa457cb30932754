# SPDX-License-Identifier: GPL-2.0
"""mlte's classes and their permissions, in bit order, as `mlte-policy
classes` prints them from modules/mlte/classes.rs (CLASSES), the one
list: the test generators use it rather than a copy."""
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def classes():
    """[(class, [permission, ...]), ...] in the order of classes.rs."""
    out = subprocess.run(
        ["cargo", "run", "--quiet", "--bin", "mlte-policy", "--", "classes"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    found = [(line.split()[0], line.split()[1:]) for line in out.splitlines() if line.split()]
    if not found:
        raise SystemExit("mlte-policy classes: no classes")
    return found
