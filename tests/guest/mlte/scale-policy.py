#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prints the scale policy of the boot tests: a base policy (the test
policy, tests/guest/mlte/test.policy) followed by 5,000 more types and
100,000 allow rules among them, drawn from a fixed seed, so that
mlte_test.c's a_policy_of_5000_more_types_loads_and_decides loads a policy
of that size and checks that the base decisions and two of the new types
decide as written.

Usage: scale-policy.py BASE_POLICY [TYPES RULES] > OUT
"""
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "mlte"))
import mlte_classes  # noqa: E402

# mlte's classes and permissions (modules/mlte/classes.rs).
CLASSES = dict(mlte_classes.classes())


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    types = int(sys.argv[2]) if len(sys.argv) == 4 else 5000
    rules = int(sys.argv[3]) if len(sys.argv) == 4 else 100_000
    out = [open(sys.argv[1]).read(), f"\n# {types} generated types, {rules} generated rules.\n"]
    out += [f"type scale_{t}_t;\n" for t in range(types)]
    # The two the test uses: init_t labels files with them; user_t reads
    # scale_42_t, and nothing lets it at scale_43_t.
    out.append("allow init_t { scale_42_t scale_43_t } : file *;\n")
    out.append("allow user_t scale_42_t : file { read open getattr };\n")
    rng = random.Random(22)
    names = list(CLASSES)
    for _ in range(rules):
        s, t = rng.randrange(types), rng.randrange(types)
        cls = rng.choice(names)
        perms = rng.sample(CLASSES[cls], rng.randint(1, min(3, len(CLASSES[cls]))))
        out.append(f"allow scale_{s}_t scale_{t}_t : {cls} {{ {' '.join(perms)} }};\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
