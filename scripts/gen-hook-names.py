#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes hook_names.h for the guest tests, from the sources themselves.

- every hook stacker can register, in hook table order
  (stacker/core/hook_table.rs), as an array of names and as an X-macro;
- each submodule's hooks: the methods in the `hooks { ... }` block of its
  `submodule!` (every *.rs under capstack/ and modules/), with the hooks
  that follow from them, or every hook for a submodule that says it
  implements all (`HookSet::of(Hook::ALL)`), under each name it registers
  (its `c"..."` names).

So the tests expect what the code declares, and adding a hook or a
submodule needs no edit here.

It also writes STACKER_DEFAULT_CHAIN, the test kernel's compile-time
default chain, and STACKER_POSITIONS, its static call positions: each the
last value in linux/stacker.config then linux/test.config (the order the
test kernel merges them), or the Kconfig default.

Usage: gen-hook-names.py REPO_ROOT OUT_HEADER
"""
import pathlib
import re
import sys

# Hooks that follow from others (`HookSet::with_derived` in stacker/core/hook.rs).
DERIVED = {"getprocattr": ["getselfattr"], "setprocattr": ["setselfattr"],
           "file_ioctl": ["file_ioctl_compat"],
           "secid_to_secctx": ["lsmprop_to_secctx", "release_secctx"],
           "audit_rule_init": ["audit_rule_free", "audit_rule_known"]}


def label_hooks(root):
    """The hooks of labels as secids (`LABEL_HOOKS` in stacker/core/lsm_prop.rs)."""
    text = (root / "stacker/core/lsm_prop.rs").read_text()
    m = re.search(r"const LABEL_HOOKS: &\[Hook\] = &\[(.*?)\];", text, re.S)
    return re.findall(r"Hook::(\w+)", m.group(1))


def table_hooks(root):
    text = (root / "stacker/core/hook_table.rs").read_text()
    # An entry starts a line with its combining rule, then the hook's name
    # and its C arguments; no other line of the table does.
    return re.findall(r"^\s+[a-z_]+\s+(\w+)\(", text, re.M)


def block(text, start):
    """The text of the brace block that opens at or after `start`."""
    i = text.index("{", start)
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1:j]
    raise ValueError("unbalanced braces")


def submodules(root, known):
    out = {}
    for path in sorted([*root.glob("capstack/*.rs"), *root.glob("modules/*/*.rs")]):
        text = path.read_text()
        m = re.search(r"crate::submodule::submodule!\s*\{", text)
        if m:
            body = block(text, m.start())
            impl = block(body, 0)
            hooks_at = body.index("hooks", body.index(impl) + len(impl))
            hooks = re.findall(r"\bfn\s+(\w+)", block(body, hooks_at))
            unknown = [h for h in hooks if h not in known]
            if unknown:
                sys.exit(f"{path}: not hooks of the table: {unknown}")
            hooks += [d for h in hooks for d in DERIVED.get(h, [])]
            later = hooks
        elif "const HOOKS: HookSet = HookSet::of(Hook::ALL)" in text:
            # A submodule that implements every hook (modules/probe); with
            # `.without_if(I != 0, crate::lsm_prop::LABEL_HOOKS)`, its
            # instances after the first bear no labels.
            impl, hooks = text, list(known)
            later = hooks
            if "without_if(I != 0, crate::lsm_prop::LABEL_HOOKS)" in text:
                labels = label_hooks(root)
                later = [h for h in hooks if h not in labels]
        else:
            continue
        # `const NAME: &CStr = c"x";`, or `NAMES[I]` of `const NAMES: [..] = [c"a", ..];`.
        const = "NAMES" if "NAMES[" in impl else "NAME"
        value = re.search(rf"const {const}\b[^=]*=([^;]*);", text).group(1)
        names = re.findall(r'c"([a-z_0-9]+)"', value)
        for i, name in enumerate(names):
            out[name] = sorted(hooks if i == 0 else later, key=known.index)
    return out


def default_chain(root):
    value = ""
    for frag in ("linux/stacker.config", "linux/test.config"):
        for m in re.finditer(r'^CONFIG_SECURITY_STACKER_DEFAULT_CHAIN="([^"]*)"',
                             (root / frag).read_text(), re.M):
            value = m.group(1)
    return value


def positions(root):
    """CONFIG_SECURITY_STACKER_POSITIONS of the test kernel: the last value
    in its fragments, else the Kconfig default."""
    m = re.search(r"^config SECURITY_STACKER_POSITIONS\n(?:\t.*\n)*?\tdefault (\d+)",
                  (root / "Kconfig").read_text(), re.M)
    value = m.group(1) if m else "1"
    for frag in ("linux/stacker.config", "linux/test.config"):
        for m in re.finditer(r"^CONFIG_SECURITY_STACKER_POSITIONS=(\d+)",
                             (root / frag).read_text(), re.M):
            value = m.group(1)
    return value


def main():
    root, header = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    hooks = table_hooks(root)
    subs = submodules(root, hooks)
    c = lambda xs: ", ".join(f'"{x}"' for x in xs)
    lines = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/* Generated by scripts/gen-hook-names.py from the sources: do not edit. */",
        "#ifndef HOOK_NAMES_H",
        "#define HOOK_NAMES_H",
        "#include <string.h>",
        "",
        "/* The test kernel's default chain (CONFIG_SECURITY_STACKER_DEFAULT_CHAIN). */",
        f'#define STACKER_DEFAULT_CHAIN "{default_chain(root)}"',
        "/* Its static call positions (CONFIG_SECURITY_STACKER_POSITIONS). */",
        f"#define STACKER_POSITIONS {positions(root)}",
        "",
        "/* Every hook stacker can register, in hook table order. */",
        f"static const char *const all_hooks[] = {{ {c(hooks)}, NULL }};",
        "",
        "/* X(hook) for each hook of all_hooks, in its order: a test per hook. */",
        "#define STACKER_FOR_EACH_HOOK(X) \\",
        " \\\n".join(f"\tX({h})" for h in hooks),
        "",
    ]
    for name, hs in subs.items():
        lines.append(f"static const char *const hooks_{name}[] = {{ {c(hs)}{', ' if hs else ''}NULL }};")
    lines += ["", "/* The hooks submodule `name` implements, or NULL if unknown. */",
              "static inline const char *const *hooks_of(const char *name)", "{"]
    for name in subs:
        lines.append(f'\tif (!strcmp(name, "{name}"))\n\t\treturn hooks_{name};')
    lines += ["\treturn NULL;", "}", "", "#endif", ""]
    header.write_text("\n".join(lines))


main()
