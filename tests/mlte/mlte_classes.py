# SPDX-License-Identifier: GPL-2.0
"""mlte's classes and their permissions, in bit order, read from
modules/mlte/classes.rs (CLASSES), the one list: the test generators use
it rather than a copy."""
import pathlib
import re

CLASSES_RS = pathlib.Path(__file__).resolve().parents[2] / "modules/mlte/classes.rs"


def classes():
    """[(class, [permission, ...]), ...] in the order of classes.rs."""
    text = CLASSES_RS.read_text()
    body = text[text.index("pub(crate) const CLASSES"):]
    body = body[:body.index("];")]
    body = re.sub(r"//[^\n]*", "", body)
    out = []
    for m in re.finditer(r'\(\s*"(\w+)",\s*&\[([^\]]*)\]', body):
        out.append((m.group(1), re.findall(r'"(\w+)"', m.group(2))))
    if not out:
        raise SystemExit(f"{CLASSES_RS}: no CLASSES found")
    return out
