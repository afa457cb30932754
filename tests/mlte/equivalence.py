#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Random policies in the subset that both checkpolicy and mlte-policy
compile, for the equivalence test (tests/guest/mlte_equivalence_test.c):
SELinux and mlte, each loaded with one of them, must give the same
decision for every permission mlte has, for every pair of the contexts
listed and every class of mlte's.

Usage: equivalence.py DECLARATIONS SEED OUTDIR
  DECLARATIONS  the kernel's class, SID and permission declarations (the
                head of scripts/selinux/mdp's policy.conf, as
                scripts/selinux-policy.sh makes it)
  writes OUTDIR/SEED.conf (the policy.conf), OUTDIR/SEED.contexts (the
  contexts to ask about, mlte's TYPE:LEVEL, one a line) and OUTDIR/classes
  (mlte's classes, each line "CLASS PERM...", in bit order).

Each policy has 4 to 7 types, up to 3 attributes (some empty), 30 allow
rules and 8 dontaudit rules over types, attributes, self, sets with
exclusions and '*', and 5 mlsconstrain statements whose expressions nest l1/l2 relations and
t1/t2 tests of types, sets and attributes with and, or and not.
"""
import pathlib
import random
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mlte_classes  # noqa: E402

LEVELS = ["s0", "s0:c1", "s1:c0", "s1:c0,c1", "s2:c0.c3"]
RELATIONS = ["l1 dom l2", "l1 domby l2", "l1 eq l2", "l1 incomp l2"]


def generate(declarations, seed):
    rng = random.Random(seed)
    classes = mlte_classes.classes()
    types = [f"ty{i}" for i in range(rng.randint(4, 7))]
    attrs = [f"a{i}" for i in range(rng.randint(1, 3))]
    members = {a: sorted(rng.sample(types, rng.randint(0, len(types) - 1))) for a in attrs}
    names = types + attrs

    def one_set(with_self):
        r = rng.random()
        if r < 0.4:
            return rng.choice(names)
        if with_self and r < 0.5:
            return "self"
        inc = rng.sample(names, rng.randint(1, 3))
        out = list(inc)
        if rng.random() < 0.4:
            out.append("-" + rng.choice(types))
        if with_self and rng.random() < 0.2:
            out.append("self")
        return "{ " + " ".join(out) + " }"

    def perms(class_perms):
        if rng.random() < 0.15:
            return "*"
        return "{ " + " ".join(rng.sample(class_perms, rng.randint(1, min(4, len(class_perms))))) + " }"

    def expr(depth):
        r = rng.random()
        if depth > 0 and r < 0.3:
            op = rng.choice(["and", "or"])
            return f"( {expr(depth - 1)} {op} {expr(depth - 1)} )"
        if depth > 0 and r < 0.4:
            return f"not ( {expr(depth - 1)} )"
        if r < 0.7:
            return rng.choice(RELATIONS)
        side = rng.choice(["t1", "t2"])
        eq = rng.choice(["==", "!="])
        if rng.random() < 0.5:
            return f"{side} {eq} {rng.choice(names)}"
        return f"{side} {eq} {{ {' '.join(rng.sample(names, 2))} }}"

    out = [declarations.rstrip("\n") + "\n\n# Generated: seed %d.\n" % seed]
    out += ["sensitivity s0;\nsensitivity s1;\nsensitivity s2;\ndominance { s0 s1 s2 }\n"]
    out += [f"category c{c};\n" for c in range(4)]
    out += [f"level s{s}:c0.c3;\n" for s in range(3)]
    for _ in range(5):
        cls, cperms = rng.choice(classes)
        out.append(f"mlsconstrain {cls} {perms(cperms)} ({expr(3)});\n")
    out += [f"attribute {a};\n" for a in attrs]
    for t in types:
        mine = [a for a in attrs if t in members[a]]
        out.append(f"type {t}" + "".join(f", {a}" for a in mine) + ";\n")
    for _ in range(30):
        cls, cperms = rng.choice(classes)
        out.append(f"allow {one_set(False)} {one_set(True)}:{cls} {perms(cperms)};\n")
    for _ in range(8):
        cls, cperms = rng.choice(classes)
        out.append(f"dontaudit {one_set(False)} {one_set(True)}:{cls} {perms(cperms)};\n")
    # The test runs in the kernel SID (ty0): it may ask SELinux (left out
    # by mlte, which does not mediate class security).
    out.append("allow ty0 ty0:security *;\n")
    out.append("role system_r;\nrole system_r types { %s };\n" % " ".join(types))
    out.append("user system_u roles { system_r } level s0 range s0 - s2:c0.c3;\n")
    for sid in re.findall(r"^sid (\w+)$", declarations, re.M):
        if sid == "kernel":
            out.append("sid kernel system_u:system_r:ty0:s0 - s2:c0.c3\n")
        else:
            out.append(f"sid {sid} system_u:object_r:ty0:s0\n")
    contexts = [f"{t}:{lv}" for t in types for lv in LEVELS]
    return "".join(out), contexts, classes


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: equivalence.py DECLARATIONS SEED OUTDIR")
    declarations = pathlib.Path(sys.argv[1]).read_text()
    seed = int(sys.argv[2])
    outdir = pathlib.Path(sys.argv[3])
    outdir.mkdir(parents=True, exist_ok=True)
    policy, contexts, classes = generate(declarations, seed)
    (outdir / f"{seed}.conf").write_text(policy)
    (outdir / f"{seed}.contexts").write_text("".join(c + "\n" for c in contexts))
    (outdir / "classes").write_text("".join(f"{c} {' '.join(p)}\n" for c, p in classes))


if __name__ == "__main__":
    main()
