#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turns out/bench/raw.csv into the benchmark report.

Writes report.md (a markdown table and the targets), results.csv (mean,
95% confidence interval and overhead against the baseline, per variant and
workload) and overhead.png (a chart of the overheads), and prints the
report. Usage: report.py OUTDIR quick|full
"""

import csv
import math
import statistics
import sys
from collections import defaultdict

# Two-sided 95% Student t quantiles, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}

BASELINE = "baseline"
ORDER = ["baseline", "stacker-empty", "stacker-capstack", "stacker-capstack-loop",
         "capstack-own-lsm", "landlock-yama", "selinux", "mlte", "mlte-capstack", "mlte-cat1024",
         "ima", "integrity",
         "chain2-straight", "chain2-positions", "chain2-loop", "chain2-own-lsm",
         "chain3-straight", "chain3-positions", "chain3-loop", "chain3-own-lsm"]
DESCRIBE = {
    "baseline": "no stacker: capability only (`lsm=capability`)",
    "stacker-empty": "stacker with an empty chain",
    "stacker-capstack": "stacker + capstack, single tier (capstack's own entry points)",
    "stacker-capstack-loop": "stacker + capstack, loop tier (`stacker.dispatch=loop`)",
    "capstack-own-lsm": "capstack registered as its own LSM (`lsm=capstack`)",
    "landlock-yama": "upstream reference: Landlock + Yama",
    "selinux": "upstream reference: SELinux, enforcing, a minimal MLS policy "
               "(`tests/bench/policy.conf`), workloads in `system_u:system_r:bench_t:s1:c0.c1`",
    "mlte": "stacker + mlte, enforcing the same policy source, compiled by mlte-policy "
            "(`tests/bench/policy.conf`), workloads in `system_u:system_r:bench_t:s1:c0,c1`",
    "mlte-capstack": "stacker + capstack then mlte (`stacker.chain=capstack,mlte`)",
    "mlte-cat1024": "`mlte` with 1,024 categories in every label: the policy with c0 to "
                    "c1023, workloads in `system_u:system_r:bench_t:s1:c0.c1023`",
    "ima": "upstream reference: IMA (built in, idle in the other variants), measuring and "
           "appraising, enforcing, the appraise workloads' files (`tests/bench/appraise.c`)",
    "integrity": "stacker + integrity (`stacker.chain=integrity`), with IMA's policy",
    "chain2-straight": "stacker, capstack,probe_b: straight-line tier (the default chain)",
    "chain2-positions": "stacker, probe_b,capstack from `stacker.chain=`: positions tier",
    "chain2-loop": "stacker, capstack,probe_b: loop tier",
    "chain2-own-lsm": "capstack and probe_b as LSMs of their own (`lsm=capstack,probe_b`)",
    "chain3-straight": "stacker, capstack,probe_b,probe_c: straight-line tier (second image)",
    "chain3-positions": "stacker, probe_c,probe_b,capstack from `stacker.chain=`: positions "
                        "tier (second image)",
    "chain3-loop": "stacker, capstack,probe_b,probe_c: loop tier (second image)",
    "chain3-own-lsm": "capstack, probe_b, probe_c as LSMs of their own",
}
# Per-hook figures from the kernel (hook_bench.c), as "hook_<name>" rows.
HOOKS = ["capable", "file_open", "inode_permission", "cred_prepare"]
# Pairs compared per hook: stacker's single tier against capstack as its
# own LSM (expected: exactly 0); each tier against the LSM core's own
# stacking of the same chain; loop against straight-line.
COMPARE = [
    ("stacker-capstack", "capstack-own-lsm"),
    ("stacker-capstack-loop", "stacker-capstack"),
    ("chain2-straight", "chain2-own-lsm"),
    ("chain2-positions", "chain2-own-lsm"),
    ("chain2-loop", "chain2-straight"),
    ("chain3-straight", "chain3-own-lsm"),
    ("chain3-positions", "chain3-own-lsm"),
    ("chain3-loop", "chain3-straight"),
]
# One, two and three submodules (capstack, then no-op probes) in each way of
# stacking: the differences are what each further submodule costs.
FURTHER = {
    "stacker (single, then straight-line)": ["stacker-capstack", "chain2-straight",
                                             "chain3-straight"],
    "stacker, positions tier (boot-time chain)": ["stacker-capstack", "chain2-positions",
                                                  "chain3-positions"],
    "stacker, loop tier": ["stacker-capstack-loop", "chain2-loop", "chain3-loop"],
    "LSMs of their own (LSM core stacking)": ["capstack-own-lsm", "chain2-own-lsm",
                                              "chain3-own-lsm"],
}
# The side-by-side comparison of SELinux-like policies (issue 10): these
# workloads and per-hook figures, for the baseline, SELinux and every
# variant whose name starts with "mlte" (the mlte submodule, in whatever
# configurations bench.sh defines).
SELINUX_SIDE = {
    "title": "SELinux-like policies side by side",
    "reference": "selinux",
    "prefix": "mlte",
    "workloads": ["open_close", "stat", "unix_socket", "fork_exec"],
    "hooks": True,
    "about": "`selinux` runs its workloads in `bench_t` under an enforcing MLS policy "
             "(`tests/bench/policy.conf`); `mlte*` are the mlte submodule's variants, with the same policy source.",
}
# The side-by-side comparison of measurement and appraisal (issue 11): the
# baseline, IMA and every variant whose name starts with "integrity", on
# opens and execs of files the policy selects (measured_*), of files it
# does not (open_close, fork_exec: the policy is looked up, nothing more),
# and the first measurement of a rewritten file, per MiB.
INTEGRITY_SIDE = {
    "title": "Measurement and appraisal side by side",
    "reference": "ima",
    "prefix": "integrity",
    "workloads": ["measured_open_read", "measured_fork_exec", "first_measure_1m",
                  "first_measure_4m", "open_close", "fork_exec"],
    "hooks": False,
    "about": "`ima` and `integrity*` measure and appraise (enforcing; SHA-256 digests in "
             "`security.ima`) the files of `tests/bench/appraise.c`, the same files and xattrs "
             "as the baseline's, under the same policy: `measured_open_read` is open + read "
             "4 KiB + close, and `measured_fork_exec` fork + exec of a static binary, of a file "
             "already measured and appraised; `first_measure_*` is, after the file (1 or 4 MiB) "
             "was rewritten in place with the same bytes, the first open + close (measured and "
             "appraised again) less the next one, per MiB of file (about 0 without a policy); "
             "`open_close` and `fork_exec` "
             "(bench.c) are of files the policy does not select. Both lists keep a measurement "
             "once, so re-measurements of the same bytes hash and appraise but add no entry.",
}
MICRO = ["null_syscall", "setuid", "stat", "open_close", "create_delete", "unix_socket", "fork_exit",
         "fork_exec", "pipe_roundtrip", "unix_bandwidth", "tcp_bandwidth", "measured_open_read",
         "measured_fork_exec", "first_measure_1m", "first_measure_4m"]
# Workloads whose baseline figure is about zero: a difference, not a ratio.
NEAR_ZERO = ["first_measure_1m", "first_measure_4m"]


def t95(df):
    keys = sorted(k for k in T95 if k <= df)
    return T95[keys[-1]] if keys else float("nan")


def summarize(values):
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return mean, float("nan"), n
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, half, n


def overhead(mean, base, unit):
    """Extra cost in percent: more instructions, or less throughput (n/a
    against a zero: a hook the baseline does not implement)."""
    if base == 0 or mean == 0:
        return float("nan")
    if unit == "MB/s":
        return (base / mean - 1) * 100
    return (mean / base - 1) * 100


def fmt(x, digits=1):
    return "n/a" if x != x else f"{x:,.{digits}f}"


def main():
    out, mode = sys.argv[1], sys.argv[2]
    data = defaultdict(list)
    units = {}
    for row in csv.DictReader(open(f"{out}/raw.csv")):
        data[(row["variant"], row["workload"])].append(float(row["value"]))
        units[row["workload"]] = row["unit"]
    present = {k[0] for k in data}
    # Variants report.py does not know (a new mlte configuration) still get
    # their column, after the known ones.
    variants = [v for v in ORDER if v in present] + sorted(present - set(ORDER))
    hook_data = {k: v for k, v in data.items() if k[1].startswith("hook_")}
    workloads = [w for w in MICRO if w in units] + sorted(
        w for w in units if w not in MICRO and not w.startswith("hook_"))

    stats = {k: summarize(v) for k, v in data.items()}
    rows = []
    # results.csv has the per-hook figures too; the main table does not.
    for w in workloads + sorted({k[1] for k in hook_data}):
        base = stats.get((BASELINE, w))
        for v in variants:
            if (v, w) not in stats:
                continue
            mean, half, n = stats[(v, w)]
            ov = (overhead(mean, base[0], units[w]) if base and w not in NEAR_ZERO
                  else float("nan"))
            ov_half = (half / mean * 100) if base and mean and half == half else float("nan")
            rows.append((v, w, units[w], n, mean, half, ov, ov_half))

    with open(f"{out}/results.csv", "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["variant", "workload", "unit", "runs", "mean", "ci95_half_width",
                     "overhead_pct_vs_baseline", "ci95_pct"])
        for r in rows:
            wr.writerow([r[0], r[1], r[2], r[3], f"{r[4]:.2f}", f"{r[5]:.2f}",
                         f"{r[6]:.3f}", f"{r[7]:.3f}"])

    lines = ["# stacker benchmark report", ""]
    lines += [
        "## Method",
        "",
        ("One kernel image (`linux/stacker.config` + `linux/bench.config`: no statistics, no "
         "KUnit)" if mode == "full" else
         "QUICK MODE (`make test`): the test kernel (statistics and KUnit on), one short run; "
         "the figures only show that every workload runs") +
        ", one boot per variant and repeat, the variant chosen on the kernel command "
        "line, variants interleaved within each repeat. QEMU TCG with `-icount shift=0`: the "
        "guest clock advances one nanosecond per guest instruction, so the figures are "
        "instruction counts (ns/op = instructions per operation; MB/s = megabytes per "
        "10^9 instructions). icount models no caches or branch prediction. Mean of "
        f"{max(r[3] for r in rows) if rows else 0} runs, with the 95% confidence interval "
        "(Student t) as +/- half-width; overhead is against the baseline in the same run "
        "(more instructions per op, or fewer MB per instruction).",
        "",
        "Variants:",
        "",
    ]
    lines += [f"- `{v}`: {DESCRIBE.get(v, v)}" for v in variants]
    lines += ["", "## Results", ""]
    header = "| workload | unit | " + " | ".join(f"`{v}`" for v in variants) + " |"
    lines += [header, "|" + " --- |" * (len(variants) + 2)]
    by = {(r[0], r[1]): r for r in rows}
    for w in workloads:
        cells = []
        for v in variants:
            r = by.get((v, w))
            if not r:
                cells.append("")
                continue
            cell = f"{fmt(r[4])} +/- {fmt(r[5])}"
            base = by.get((BASELINE, w))
            if v != BASELINE and r[6] == r[6]:
                cell += f" ({r[6]:+.2f}%)"
            elif v != BASELINE and w in NEAR_ZERO and base:
                cell += f" ({r[4] - base[4]:+,.1f})"
            cells.append(cell)
        lines.append(f"| {w} | {units[w]} | " + " | ".join(cells) + " |")

    lines += side_by_side(data, units, variants, SELINUX_SIDE)
    lines += side_by_side(data, units, variants, INTEGRITY_SIDE)
    lines += hook_table(hook_data, variants)
    lines += ["", "## Targets", ""]
    lines += hook_targets(hook_data)
    lines += targets(by, workloads, units)
    for host in ("dispatch.md", "category.md"):
        try:
            lines += ["", open(f"{out}/{host}").read().rstrip()]
        except OSError:
            pass
    lines += ["", "Raw samples: `raw.csv`; summary: `results.csv`; chart: `overhead.png`."]
    text = "\n".join(lines) + "\n"
    open(f"{out}/report.md", "w").write(text)
    chart(out, rows, variants, workloads)
    print(text)


def side_by_side(data, units, variants, side):
    """The baseline, a reference (SELinux, IMA) and the variants of the
    submodule that mirrors it (mlte*, integrity*) side by side:
    instructions per operation on the workloads that policy checks (and,
    if side["hooks"], per hook call in the kernel), with the ratio against
    the baseline. Then, for each submodule variant against the reference
    (or the reference against the baseline when there is no submodule
    variant), where it costs less and where more."""
    reference, prefix = side["reference"], side["prefix"]
    vs = [v for v in (BASELINE, reference) if v in variants]
    vs += [v for v in variants if v.startswith(prefix)]
    if reference not in vs and not any(v.startswith(prefix) for v in vs):
        return []
    rows = [(w, w) for w in side["workloads"]]
    if side["hooks"]:
        rows += [(f"hook_{h}", f"{h} (hook)") for h in HOOKS]
    rows = [(w, label) for w, label in rows if any((v, w) in data for v in vs)]
    mean = {(v, w): statistics.fmean(data[(v, w)]) for v in vs for w, _ in rows
            if (v, w) in data}
    if side["hooks"]:
        intro = ("Instructions per operation (the syscall workloads) and per call (the hooks, "
                 "measured in the kernel as in the per-hook table below), mean over the repeats. "
                 "In brackets: the ratio against `baseline` (capability only), and for the hooks "
                 "the instructions added (the baseline's hook figures are what `security_*()` "
                 "costs with no LSM hook behind it but capability's). ")
    else:
        intro = ("Instructions per operation, mean over the repeats. In brackets: the ratio "
                 "against `baseline` (capability only), and for figures about zero in the "
                 "baseline the difference. ")
    out = ["", f"## {side['title']}", "", intro + side["about"], ""]
    out.append("| workload | unit | " + " | ".join(f"`{v}`" for v in vs) + " |")
    out.append("| --- | --- |" + " ---: |" * len(vs))
    for w, label in rows:
        base = mean.get((BASELINE, w))
        cells = []
        for v in vs:
            m = mean.get((v, w))
            if m is None:
                cells.append("")
                continue
            cell = f"{m:,.1f}"
            if v != BASELINE and base is not None:
                extra = [f"x{m / base:.2f}"] if base >= 1 and w not in NEAR_ZERO else []
                if w.startswith("hook_") or w in NEAR_ZERO:
                    extra.append(f"{m - base:+,.1f}")
                cell += f" ({', '.join(extra)})"
            cells.append(cell)
        unit = units[w] if w in units else ""
        out.append(f"| {label} | {unit} | " + " | ".join(cells) + " |")
    pairs = [(v, reference) for v in vs if v.startswith(prefix)]
    if not pairs and reference in vs and BASELINE in vs:
        out += ["", f"No `{prefix}*` variant in this run."]
        pairs = [(reference, BASELINE)]
    out.append("")
    for a, b in pairs:
        better, worse, same = [], [], []
        for w, label in rows:
            x, y = mean.get((a, w)), mean.get((b, w))
            if x is None or y is None or (w in NEAR_ZERO and b == BASELINE):
                continue
            # Fewer instructions is better; within 0.5% (or one
            # instruction per hook call) counts as the same.
            if abs(x - y) <= max(0.005 * abs(y), 1.0 if w.startswith("hook_") else 0.0):
                same.append(label)
            elif x < y:
                better.append(f"{label} {(x / y - 1) * 100:+.1f}%")
            else:
                worse.append(f"{label} {(x / y - 1) * 100:+.1f}%")
        out.append(f"- `{a}` against `{b}`: cheaper on " + (", ".join(better) or "nothing") +
                   "; dearer on " + (", ".join(worse) or "nothing") +
                   ("; the same on " + ", ".join(same) if same else "") + ".")
    return out


def hook_table(hook_data, variants):
    """The per-hook table: instructions per call measured in the kernel.

    Each figure is the minimum over batches (hook_bench.c), so two boots of
    one variant must give the same figure: the spread (max - min over the
    repeats) is shown, and any non-zero spread is called out.
    """
    hooks = [h for h in HOOKS if any(k[1] == f"hook_{h}" for k in hook_data)]
    hooks += sorted({k[1][5:] for k in hook_data} - set(hooks))
    if not hooks:
        return []
    vs = [v for v in variants if any((v, f"hook_{h}") in hook_data for h in hooks)]
    mean = {k: statistics.fmean(x) for k, x in hook_data.items()}
    spread = {k: max(x) - min(x) for k, x in hook_data.items()}
    out = ["", "## Per-hook cost in the kernel (instructions per call)", "",
           "Measured in the guest kernel by `/sys/kernel/security/stacker_hook_bench` "
           "(`stacker/kernel/hook_bench.c`): each `security_*()` call in batches of 64, the "
           "minimum over batches less the minimum of an empty batch, so interrupts and memory "
           "layout of the syscall path do not enter. `cred_prepare` is "
           "`prepare_creds()` + `abort_creds()` (7.3 has no separate "
           "`security_cred_prepare()`): it includes the allocation and free of the cred and "
           "its blob, the same code in every variant. Cells: mean over the repeats, then the "
           "difference against `baseline`.", ""]
    out.append("| variant | " + " | ".join(hooks) + " |")
    out.append("| --- |" + " ---: |" * len(hooks))
    for v in vs:
        cells = []
        for h in hooks:
            m = mean.get((v, f"hook_{h}"))
            base = mean.get((BASELINE, f"hook_{h}"))
            if m is None:
                cells.append("")
            elif v == BASELINE or base is None:
                cells.append(f"{m:,.1f}")
            else:
                cells.append(f"{m:,.1f} ({m - base:+.1f})")
        out.append(f"| `{v}` | " + " | ".join(cells) + " |")
    pairs = [(a, b) for a, b in COMPARE if a in vs and b in vs]
    if pairs:
        out += ["", "Differences, instructions per call (`stacker-capstack` - "
                "`capstack-own-lsm` should be exactly 0):", ""]
        out.append("| comparison | " + " | ".join(hooks) + " |")
        out.append("| --- |" + " ---: |" * len(hooks))
        for a, b in pairs:
            cells = []
            for h in hooks:
                x, y = mean.get((a, f"hook_{h}")), mean.get((b, f"hook_{h}"))
                cells.append("" if x is None or y is None else f"{x - y:+.1f}")
            out.append(f"| `{a}` - `{b}` | " + " | ".join(cells) + " |")
    steps = []
    for way, chain in FURTHER.items():
        for n, (a, b) in enumerate(zip(chain, chain[1:]), start=2):
            if a in vs and b in vs:
                cells = []
                for h in hooks:
                    x, y = mean.get((b, f"hook_{h}")), mean.get((a, f"hook_{h}"))
                    cells.append("" if x is None or y is None else f"{x - y:+.1f}")
                steps.append(f"| {way} | {n - 1} to {n} | " + " | ".join(cells) + " |")
    if steps:
        out += ["", "Cost of each further submodule (a no-op probe after capstack), "
                "instructions per call:", ""]
        out.append("| stacking | submodules | " + " | ".join(hooks) + " |")
        out.append("| --- | --- |" + " ---: |" * len(hooks))
        out += steps
    runs = max(len(x) for x in hook_data.values())
    moved = [f"`{k[0]}` {k[1][5:]} {d:.1f}" for k, d in sorted(spread.items()) if d]
    if runs < 2:
        out += ["", "Repeat-to-repeat spread: one boot per variant, not checked."]
    elif moved:
        out += ["", f"Repeat-to-repeat spread over {runs} boots is NOT zero: " +
                ", ".join(moved) + " (instructions per call, max - min)."]
    else:
        out += ["", f"Repeat-to-repeat spread over {runs} boots: 0.0 for every hook and "
                "variant (identical figures)."]
    return out


# Whole-syscall differences up to this fraction are not called out: with
# repeatable boots the confidence interval is 0, and memory layout alone
# moves syscall paths by this much (design.rst, "Measuring the cost").
LAYOUT_TOLERANCE = 0.001


def within_spread(a, b):
    """Whether two (mean, half-width) results are indistinguishable: within
    their confidence intervals plus LAYOUT_TOLERANCE of the mean."""
    if a[5] != a[5] or b[5] != b[5]:
        return None
    return abs(a[4] - b[4]) <= a[5] + b[5] + LAYOUT_TOLERANCE * abs(b[4])


def hook_targets(hook_data):
    """The targets read from the per-hook figures, which no layout moves."""
    mean = {k: statistics.fmean(x) for k, x in hook_data.items()}
    out = []
    checks = [
        ("stacker-capstack", "capstack-own-lsm", HOOKS,
         "One-submodule chain vs the same submodule as its own LSM, 0 instructions per hook"),
        ("stacker-empty", BASELINE, HOOKS,
         "Empty chain vs baseline, 0 instructions per hook"),
        ("stacker-capstack", BASELINE, ["file_open", "inode_permission"],
         "Hooks no enabled submodule implements cost 0 (capstack has no file or inode hook)"),
    ]
    for a, b, hooks, what in checks:
        diffs = [(h, mean[(a, f"hook_{h}")] - mean[(b, f"hook_{h}")]) for h in hooks
                 if (a, f"hook_{h}") in mean and (b, f"hook_{h}") in mean]
        if diffs:
            ok = all(d == 0 for _, d in diffs)
            out.append(f"- {what}: **{'met' if ok else 'NOT met'}**. " +
                       ", ".join(f"{h} {d:+.1f}" for h, d in diffs) + ".")
    return out


def targets(by, workloads, units):
    out = []
    micro = [w for w in workloads if w in MICRO]
    # 1. Empty chain against the baseline.
    diffs = []
    for w in micro:
        a, b = by.get(("stacker-empty", w)), by.get((BASELINE, w))
        if a and b:
            diffs.append((w, a[6], within_spread(a, b)))
    if diffs:
        bad = [d for d in diffs if d[2] is False]
        verdict = "met" if diffs and not bad and all(d[2] for d in diffs) else (
            "not decidable (one run)" if any(d[2] is None for d in diffs) else "NOT met")
        out.append(f"- Empty chain vs baseline, whole syscalls within the run-to-run spread "
                   f"plus {LAYOUT_TOLERANCE:.1%} (layout): "
                   f"**{verdict}**. " + ", ".join(f"{w} {o:+.2f}%" for w, o, _ in diffs) + ".")
    # 2. The single tier against capstack registered as its own LSM.
    worst = None
    parts = []
    for w in micro:
        if w in NEAR_ZERO:
            # About zero in both (nothing is measured there): a ratio of
            # two noises, not an overhead.
            continue
        a, b = by.get(("stacker-capstack", w)), by.get(("capstack-own-lsm", w))
        if a and b:
            rel = overhead(a[4], b[4], units[w])
            parts.append(f"{w} {rel:+.3f}%")
            worst = rel if worst is None else max(worst, rel)
    if worst is not None:
        verdict = "met" if worst <= 0.3 else "NOT met"
        out.append(f"- stacker + capstack (single tier) vs capstack alone, at most +0.3% on every "
                   f"micro-operation: **{verdict}** (worst {worst:+.3f}%). " + ", ".join(parts) + ".")
    # 3. A hook no submodule implements adds nothing: capstack implements
    # no file or socket hook, so those operations must cost what they cost
    # without stacker.
    parts = []
    ok = True
    for w in ["open_close", "stat", "unix_socket", "create_delete"]:
        a, b = by.get(("stacker-capstack", w)), by.get((BASELINE, w))
        if a and b:
            same = within_spread(a, b)
            ok = ok and same is not False
            parts.append(f"{w} {a[6]:+.3f}%")
    if parts:
        out.append("- Hooks no enabled submodule implements add nothing (stacker + capstack "
                   "registers no file or socket hook; those operations against the baseline): "
                   f"**{'met' if ok else 'NOT met'}**. " + ", ".join(parts) + ".")
    out.append("- Per-submodule dispatch cost on the host, in instructions: see below.")
    return out


def chart(out, rows, variants, workloads):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib missing: no chart)", file=sys.stderr)
        return
    others = [v for v in variants if v != BASELINE]
    by = {(r[0], r[1]): r for r in rows}
    fig, ax = plt.subplots(figsize=(max(8, len(workloads) * 1.2), 5))
    width = 0.8 / max(1, len(others))
    for i, v in enumerate(others):
        xs, ys, es = [], [], []
        for j, w in enumerate(workloads):
            r = by.get((v, w))
            if r and r[6] == r[6]:
                xs.append(j + i * width)
                ys.append(r[6])
                es.append(r[7] if r[7] == r[7] else 0)
        ax.bar(xs, ys, width, yerr=es, label=v, capsize=2)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks([j + width * (len(others) - 1) / 2 for j in range(len(workloads))])
    ax.set_xticklabels(workloads, rotation=30, ha="right")
    ax.set_ylabel("overhead vs baseline (%, guest instructions)")
    ax.set_title("stacker: cost of each variant against no stacker")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}/overhead.png", dpi=100)


if __name__ == "__main__":
    main()
