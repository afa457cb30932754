#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compile-fail tests: each rule the type system enforces, shown broken.

Each case (tests/compile_fail/*.rs) is compiled as a module of the host
crate (stacker/host/lib.rs includes the file STACKER_COMPILE_FAIL_CASE
names under --cfg stacker_compile_fail), so that it sees the crate's items
as a submodule's code would. Its header says what must happen:

    // expect: ok                 it builds (a control case)
    // expect: E0423              the build fails with this error code ...
    // expect: error              ... or with an error that has no code
    //                            (compile_error!), told by its message
    // expect-message: TEXT       ... and this text in an error that points
                                  into the case file

A case passes only when the compiler says exactly that: a case that builds
when it must not, or fails with another error, fails.

Usage: run.py [--list] [--only NAME]... ; prints one line per case and
"N passed, N failed" last.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def expectations(path):
    """The case's (code or "ok", message or None)."""
    code, message = None, None
    for line in path.read_text().splitlines():
        m = re.match(r"//\s*expect:\s*(\S+)", line)
        if m:
            code = m.group(1)
        m = re.match(r"//\s*expect-message:\s*(.+)", line)
        if m:
            message = m.group(1).strip()
    if code is None:
        raise SystemExit(f"{path}: no '// expect:' line")
    return code, message


def check(path):
    """Builds the crate with the case; returns (passed, what happened)."""
    code, message = expectations(path)
    env = dict(os.environ)
    env["RUSTFLAGS"] = (env.get("RUSTFLAGS", "") + " --cfg stacker_compile_fail").strip()
    env["STACKER_COMPILE_FAIL_CASE"] = str(path)
    # A target directory of its own: the flags differ from cargo test's.
    env["CARGO_TARGET_DIR"] = str(ROOT / "target" / "compile-fail")
    run = subprocess.run(
        ["cargo", "check", "--quiet", "--lib", "-p", "stacker", "--message-format", "short"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    out = run.stdout + run.stderr
    errors = [l for l in out.splitlines() if re.search(r"\berror(\[E\d+\])?:", l)]
    if code == "ok":
        if run.returncode == 0:
            return True, "builds"
        return False, "does not build:\n  " + "\n  ".join(errors or out.splitlines()[-20:])
    if run.returncode == 0:
        return False, f"builds, but must fail with {code}"
    # An error is the case's own when it points into the case file; one
    # without a code comes from a macro, and points into the macro.
    ours = [l for l in errors if path.name in l or code == "error"]
    # "error": an error without a code (compile_error!), told by its message.
    tag = "error:" if code == "error" else f"error[{code}]"
    hit = [l for l in ours if tag in l and (message is None or message in l)]
    if hit:
        return True, hit[0].strip()
    return False, (f"fails, but not with {code}"
                   + (f" '{message}'" if message else "")
                   + " in the case file:\n  " + "\n  ".join(errors or out.splitlines()[-20:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this case (its file name without .rs); repeatable")
    args = parser.parse_args()
    cases = sorted(HERE.glob("*.rs"))
    if args.list:
        for c in cases:
            print(c.stem, expectations(c)[0])
        return 0
    if args.only:
        unknown = set(args.only) - {c.stem for c in cases}
        if unknown:
            raise SystemExit(f"no such case: {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c.stem in args.only]
    passed = failed = 0
    for c in cases:
        ok, what = check(c)
        print(f"{'ok' if ok else 'FAIL'} {c.stem}: {what}", flush=True)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
