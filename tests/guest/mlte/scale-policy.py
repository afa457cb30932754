#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prints the scale policy of the boot tests: a base policy (the test
policy, tests/guest/mlte/test.policy) followed by 5,000 more types and
100,000 allow rules among them, drawn from a fixed seed, so that
mlte_test.c's a_policy_of_5000_more_types_loads_and_decides loads a policy
of that size and checks that the base decisions and two of the new types
decide as written.

The generated part goes before the base's first `user` statement, where
checkpolicy takes type and rule declarations, so that a base checkpolicy
reads (the bench policy, after the kernel's class declarations) gives a
scale policy both checkpolicy and mlte-policy compile; the two rules on
init_t and user_t are written only when the base declares them. With
--pairs FILE, FILE gets the (source, target) types of the first 100
generated rules, one pair a line.

Usage: scale-policy.py [--pairs FILE] BASE_POLICY [TYPES RULES] > OUT
"""
import pathlib
import random
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "mlte"))
import mlte_classes  # noqa: E402

# mlte's classes and permissions (modules/mlte/classes.rs).
CLASSES = dict(mlte_classes.classes())


def main():
    args = sys.argv[1:]
    pairs_file = None
    if args[:1] == ["--pairs"] and len(args) >= 2:
        pairs_file, args = args[1], args[2:]
    if len(args) not in (1, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    types = int(args[1]) if len(args) == 3 else 5000
    rules = int(args[2]) if len(args) == 3 else 100_000
    base = open(args[0]).read()
    out = [f"\n# {types} generated types, {rules} generated rules.\n"]
    out += [f"type scale_{t}_t;\n" for t in range(types)]
    # The two the mlte test uses: init_t labels files with them; user_t
    # reads scale_42_t, and nothing lets it at scale_43_t.
    if re.search(r"^type init_t\b", base, re.M) and re.search(r"^type user_t\b", base, re.M):
        out.append("allow init_t { scale_42_t scale_43_t } : file *;\n")
        out.append("allow user_t scale_42_t : file { read open getattr };\n")
    rng = random.Random(22)
    names = list(CLASSES)
    pairs = []
    for _ in range(rules):
        s, t = rng.randrange(types), rng.randrange(types)
        cls = rng.choice(names)
        perms = rng.sample(CLASSES[cls], rng.randint(1, min(3, len(CLASSES[cls]))))
        out.append(f"allow scale_{s}_t scale_{t}_t : {cls} {{ {' '.join(perms)} }};\n")
        if len(pairs) < 100:
            pairs.append(f"scale_{s}_t scale_{t}_t\n")
    users = re.search(r"^user ", base, re.M)
    at = users.start() if users else len(base)
    sys.stdout.write(base[:at] + "".join(out) + "\n" + base[at:])
    if pairs_file:
        with open(pairs_file, "w") as f:
            f.write("".join(pairs))


if __name__ == "__main__":
    main()
