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
  contexts to ask about, USER:ROLE:TYPE:RANGE as both SELinux and mlte
  take them, one a line, each valid under the policy), OUTDIR/SEED.booleans
  (the policy's booleans, one a line), OUTDIR/SEED.names (the names its
  name-based type_transitions give, one a line) and OUTDIR/classes
  (mlte's classes, each line "CLASS PERM...", in bit order).

Each policy has 4 to 7 types, up to 3 attributes (some empty), 1 to 3
roles with random types, 1 to 3 users with random roles and ranges, role
allow rules, 30 allow rules, 8 dontaudit and 8 auditallow rules over
types, attributes, self, sets with exclusions and '*', 1 or 2 permissive
domains, 1 to 3 booleans with 2 to 4 if blocks (half with an else) of
allow, auditallow and dontaudit rules whose conditions mix !, &&, ||, ^,
== and != without parentheses, 5 mlsconstrain and 3 constrain
statements, and 2
mlsvalidatetrans and 2 validatetrans statements (with u3/r3/t3 name
tests), whose
expressions nest level relations (l1 l2, l1 h2, h1 l2, h1 h2, l1 h1,
l2 h2), u1/u2, r1/r2 and t1/t2 comparisons and tests of names, sets and
attributes with and, or and not; and the rules of new objects' contexts:
8 type_transitions (over types, attributes and self), 6 name-based ones
(names with a space and a '#' among them), 4 type_changes, 3
type_members, 4 role_transitions and 4 range_transitions (one class, a
set of classes or none, which is process), none of them conflicting, as
checkpolicy wants; and how proc, tmpfs, devpts and ramfs are labelled
(file_system_statements: fs_use_trans, genfscon or nothing, genfscon
rules for paths under proc with file types, genfs_seclabel_symlinks or
not), which the guest test checks on fresh mounts.
"""
import pathlib
import random
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mlte_classes  # noqa: E402

# The ranges of the contexts asked about (low, high).
RANGES = [("s0", "s0"), ("s0:c1", "s0:c1"), ("s1:c0", "s1:c0"), ("s1:c0,c1", "s1:c0,c1"),
          ("s2:c0.c3", "s2:c0.c3"), ("s0", "s2:c0.c3"), ("s0", "s1:c0,c1"),
          ("s1:c0", "s2:c0.c3"), ("s0:c1", "s1:c0,c1")]
# The users' ranges.
USER_RANGES = [("s0", "s2:c0.c3"), ("s0", "s1:c0,c1"), ("s1:c0", "s2:c0.c3"), ("s0", "s0:c1")]
PAIRS = ["l1 l2", "l1 h2", "h1 l2", "h1 h2", "l1 h1", "l2 h2"]
LEVEL_OPS = ["dom", "domby", "eq", "incomp", "==", "!="]
MAX_CONTEXTS = 40
# The names name-based type_transitions give (checkpolicy takes any but
# '/' and '"'; a space and a '#' test the encoding and the reading).
NAMES = ["log", "a b", "x#1", "run.pid"]


def level(text):
    """(sensitivity, categories) of a level's text."""
    sens, _, cats = text.partition(":")
    out = set()
    for part in filter(None, cats.split(",")):
        lo, _, hi = part.partition(".")
        out.update(range(int(lo[1:]), int((hi or lo)[1:]) + 1))
    return int(sens[1:]), out


def dominates(a, b):
    (sa, ca), (sb, cb) = level(a), level(b)
    return sa >= sb and ca >= cb


def context_text(user, role, ty, low, high):
    rng = low if low == high else f"{low}-{high}"
    return f"{user}:{role}:{ty}:{rng}"


def new_object_rules(rng, types, attrs, members, classes):
    """type_transition (plain and name-based), type_change, type_member and
    range_transition statements, on sets whose types are known here so
    that no two rules conflict (checkpolicy refuses that)."""
    def one_set(with_self):
        r = rng.random()
        if r < 0.2 and attrs:
            a = rng.choice(attrs)
            return a, members[a]
        if with_self and r < 0.35:
            return "self", None
        if r < 0.6:
            t = rng.choice(types)
            return t, [t]
        picked = rng.sample(types, 2)
        return "{ " + " ".join(picked) + " }", picked

    def keys(sources, targets):
        for s in sources:
            for t in (targets if targets is not None else [s]):
                yield s, t

    out = []
    taken = {}
    for kind, count in [("type_transition", 8), ("name", 6), ("type_change", 4),
                        ("type_member", 3), ("range_transition", 4)]:
        for _ in range(count):
            (src, sources), (tgt, targets) = one_set(False), one_set(kind != "range_transition")
            if kind == "range_transition":
                r = rng.random()
                if r < 0.3:
                    cls_text, cls_list = "", ["process"]
                elif r < 0.5:
                    picked = rng.sample([c for c, _ in classes], 2)
                    cls_text, cls_list = ":{ " + " ".join(picked) + " }", picked
                else:
                    c = rng.choice(classes)[0]
                    cls_text, cls_list = ":" + c, [c]
                low, high = rng.choice(RANGES)
                new = (low, high)
                rng_text = low if low == high else f"{low} - {high}"
                wanted = [(kind, s, t, c) for s, t in keys(sources, targets) for c in cls_list]
                text = f"range_transition {src} {tgt}{cls_text} {rng_text};\n"
            else:
                c = rng.choice(classes)[0]
                new = rng.choice(types)
                if kind == "name":
                    name = rng.choice(NAMES)
                    # Any second rule for a key, as checkpolicy.
                    wanted = [(name, s, t, c) for s, t in keys(sources, targets)]
                    text = f'type_transition {src} {tgt}:{c} {new} "{name}";\n'
                    new = object()
                else:
                    wanted = [(kind, s, t, c) for s, t in keys(sources, targets)]
                    text = f"{kind} {src} {tgt}:{c} {new};\n"
            if all(taken.get(k, new) == new for k in wanted):
                taken.update((k, new) for k in wanted)
                out.append(text)
    return out


# The paths under proc genfscon rules may name (prefixes of the paths the
# guest test looks at, and of others), and the file types they may take.
PROC_PATHS = ["/sys", "/sys/kernel", "/sys/kernel/random", "/sysvipc", "/net", "/net/d",
              "/k", "/kmsg", "/self", "/s", "/1"]
FILE_TYPES = ["", "", "-d", "--", "-l"]


def file_system_statements(seed, types):
    """The file system statements of policy `seed`: how the file systems
    the guest test mounts afresh after loading it (proc, tmpfs, devpts,
    ramfs) are labelled, at random: fs_use_trans, a genfscon for '/', or
    nothing (unlabeled); genfscon rules for paths under proc with file
    types; genfs_seclabel_symlinks or not. (A random generator of its own,
    so that the rest of the policy stays as it was.) Returns the policycap
    lines (which checkpolicy wants among the type statements) and the
    statements that follow the sid contexts."""
    rng = random.Random(seed * 7919 + 17)

    def ctx():
        return f"system_u:object_r:{rng.choice(types)}:{rng.choice(RANGES)[0]}"

    caps = ["policycap genfs_seclabel_symlinks;\n"] if rng.random() < 0.5 else []
    uses, genfs = [], []
    for fs, kinds in [("tmpfs", ["trans", "genfs", "none"]), ("devpts", ["trans", "genfs", "none"]),
                      ("ramfs", ["genfs", "none"]), ("proc", ["genfs", "genfs", "none"])]:
        kind = rng.choice(kinds)
        if kind == "trans":
            uses.append(f"fs_use_trans {fs} {ctx()};\n")
        elif kind == "genfs":
            genfs.append(f"genfscon {fs} / {ctx()}\n")
    taken = set()
    for path in rng.sample(PROC_PATHS, rng.randint(3, 7)):
        for spec in rng.sample(FILE_TYPES, rng.randint(1, 2)):
            # One rule a path for any type, or one each for some types
            # (checkpolicy refuses a rule another covers).
            if (path, "") in taken or (spec == "" and any(p == path for p, _ in taken)):
                continue
            taken.add((path, spec))
            genfs.append(f"genfscon proc {path} {spec + ' ' if spec else ''}{ctx()}\n")
    return caps, uses + genfs


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

    roles = [f"role{i}_r" for i in range(rng.randint(1, 3))]
    users = [f"user{i}_u" for i in range(rng.randint(1, 3))]
    role_types = {r: sorted(rng.sample(types, rng.randint(1, len(types)))) for r in roles}
    user_roles = {u: sorted(rng.sample(roles, rng.randint(1, len(roles)))) for u in users}
    user_range = {u: rng.choice(USER_RANGES) for u in users}
    role_allows = sorted({(rng.choice(roles), rng.choice(roles)) for _ in range(rng.randint(0, 3))})

    def expr(depth, mls, third=False):
        """An mlsconstrain expression (levels, the u1 u2, r1 r2 and t1 t2
        comparisons, names of types: checkpolicy reads the MLS part before
        users and roles are declared), or a constrain one (no levels;
        names of users, roles and types)."""
        r = rng.random()
        if depth > 0 and r < 0.3:
            op = rng.choice(["and", "or"])
            return f"( {expr(depth - 1, mls, third)} {op} {expr(depth - 1, mls, third)} )"
        if depth > 0 and r < 0.4:
            return f"not ( {expr(depth - 1, mls, third)} )"
        if third and rng.random() < 0.35:
            # The task's user, role or type (validatetrans), names only;
            # in the MLS part, types only (users and roles come later).
            kind = "t" if mls else rng.choice("urt")
            pool = {"u": users, "r": roles + ["system_r"], "t": names}[kind]
            return f"{kind}3 {rng.choice(['==', '!='])} {rng.choice(pool)}"
        if mls and r < 0.65:
            left, right = rng.choice(PAIRS).split()
            return f"{left} {rng.choice(LEVEL_OPS)} {right}"
        kind = rng.choice("urt")
        eq = rng.choice(["==", "!="])
        if mls and kind != "t" or rng.random() < 0.25:
            return f"{kind}1 {eq} {kind}2"
        side = f"{kind}{rng.choice('12')}"
        pool = {"u": users, "r": roles + ["object_r"], "t": names}[kind]
        if rng.random() < 0.5 or len(pool) < 2:
            return f"{side} {eq} {rng.choice(pool)}"
        return f"{side} {eq} {{ {' '.join(rng.sample(pool, 2))} }}"

    out = [declarations.rstrip("\n") + "\n\n# Generated: seed %d.\n" % seed]
    out += ["sensitivity s0;\nsensitivity s1;\nsensitivity s2;\ndominance { s0 s1 s2 }\n"]
    out += [f"category c{c};\n" for c in range(4)]
    out += [f"level s{s}:c0.c3;\n" for s in range(3)]
    for _ in range(5):
        cls, cperms = rng.choice(classes)
        out.append(f"mlsconstrain {cls} {perms(cperms)} ({expr(3, True)});\n")
    for cls in rng.sample([c for c, _ in classes], 2):
        out.append(f"mlsvalidatetrans {cls} ({expr(2, True, True)});\n")
    # constrain statements, which may name users and roles, follow the
    # users, as checkpolicy wants.
    constraints = []
    for _ in range(3):
        cls, cperms = rng.choice(classes)
        constraints.append(f"constrain {cls} {perms(cperms)} ({expr(3, False)});\n")
    for cls in rng.sample([c for c, _ in classes], 2):
        constraints.append(f"validatetrans {cls} ({expr(2, False, True)});\n")
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
    for _ in range(8):
        cls, cperms = rng.choice(classes)
        out.append(f"auditallow {one_set(False)} {one_set(True)}:{cls} {perms(cperms)};\n")
    out += [f"permissive {t};\n" for t in sorted(rng.sample(types, rng.randint(1, 2)))]
    # Booleans and if/else blocks, whose conditions mix the operators
    # without parentheses (checkpolicy's precedence decides them).
    bools = [f"b{i}_ok" for i in range(rng.randint(1, 3))]
    out += [f"bool {b} {rng.choice(['true', 'false'])};\n" for b in bools]

    def cond(depth):
        def operand():
            r = rng.random()
            if depth > 0 and r < 0.2:
                return f"( {cond(depth - 1)} )"
            return ("! " if r < 0.45 else "") + rng.choice(bools)
        text = operand()
        for _ in range(rng.randint(0, 3)):
            text += f" {rng.choice(['&&', '||', '^', '==', '!='])} {operand()}"
        return text

    def block():
        rules = []
        for _ in range(rng.randint(1, 4)):
            cls, cperms = rng.choice(classes)
            kind = rng.choice(["allow", "allow", "auditallow", "dontaudit"])
            rules.append(f"\t{kind} {one_set(False)} {one_set(True)}:{cls} {perms(cperms)};\n")
        return "{\n" + "".join(rules) + "}"

    for _ in range(rng.randint(2, 4)):
        out.append(f"if ({cond(2)}) {block()}")
        out.append(f" else {block()}\n" if rng.random() < 0.5 else "\n")
    # The test runs in the kernel SID (ty0), and every other initial SID is
    # ty0 too: it may ask both modules their decisions (class security on
    # sid security).
    out.append("allow ty0 ty0:security *;\n")
    out += new_object_rules(rng, types, attrs, members, classes)
    out.append("role system_r;\nrole system_r types { %s };\n" % " ".join(types))
    for r in roles:
        # Declared alone first: checkpolicy wants that of a role an allow
        # rule names.
        out.append(f"role {r};\nrole {r} types {{ {' '.join(role_types[r])} }};\n")
    for a, b in role_allows:
        out.append(f"allow {a} {b};\n")
    role_transitions = {}
    for _ in range(4):
        role, ty, (cls, _) = rng.choice(roles + ["system_r"]), rng.choice(types), rng.choice(classes)
        new = rng.choice(roles + ["system_r", "object_r"])
        # checkpolicy refuses any second rule for a (role, type, class).
        if (role, ty, cls) not in role_transitions:
            role_transitions[(role, ty, cls)] = new
            out.append(f"role_transition {role} {ty}:{cls} {new};\n")
    fs_caps, fs_lines = file_system_statements(seed, types)
    out += fs_caps
    out.append("user system_u roles { system_r } level s0 range s0 - s2:c0.c3;\n")
    for u in users:
        low, high = user_range[u]
        out.append(f"user {u} roles {{ {' '.join(user_roles[u])} }} level {low} range {low} - {high};\n")
    out += constraints
    for sid in re.findall(r"^sid (\w+)$", declarations, re.M):
        if sid == "kernel":
            out.append("sid kernel system_u:system_r:ty0:s0 - s2:c0.c3\n")
        else:
            out.append(f"sid {sid} system_u:object_r:ty0:s0\n")
    out += fs_lines
    # Every valid context of these users, roles, types and ranges (as
    # policydb_context_isvalid(): object_r any type and range; otherwise
    # the role has the type, the user the role, and the range is within
    # the user's), a sample of them.
    valid = []
    for u in users:
        for r in ["object_r"] + user_roles[u]:
            for t in types:
                for low, high in RANGES:
                    if r != "object_r":
                        ulow, uhigh = user_range[u]
                        if t not in role_types[r] or not (dominates(low, ulow) and dominates(uhigh, high)):
                            continue
                    valid.append(context_text(u, r, t, low, high))
    rng.shuffle(valid)
    # As many subjects' (a role of their own) as objects', where there
    # are enough.
    subjects = [c for c in valid if ":object_r:" not in c][:MAX_CONTEXTS // 2]
    objects = [c for c in valid if ":object_r:" in c]
    contexts = sorted(subjects + objects[:MAX_CONTEXTS - len(subjects)])
    return "".join(out), contexts, classes, bools, NAMES


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: equivalence.py DECLARATIONS SEED OUTDIR")
    declarations = pathlib.Path(sys.argv[1]).read_text()
    seed = int(sys.argv[2])
    outdir = pathlib.Path(sys.argv[3])
    outdir.mkdir(parents=True, exist_ok=True)
    policy, contexts, classes, bools, names = generate(declarations, seed)
    (outdir / f"{seed}.conf").write_text(policy)
    (outdir / f"{seed}.contexts").write_text("".join(c + "\n" for c in contexts))
    (outdir / f"{seed}.booleans").write_text("".join(b + "\n" for b in bools))
    (outdir / f"{seed}.names").write_text("".join(n + "\n" for n in names))
    (outdir / "classes").write_text("".join(f"{c} {' '.join(p)}\n" for c, p in classes))


if __name__ == "__main__":
    main()
