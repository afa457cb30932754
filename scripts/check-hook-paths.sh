#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check the built stacker object: no hook entry point may reach a panic or
# make an indirect call. Starts from every function of the entry module (the
# LSM hook entry points, one per hook and tier) and follows its direct call and jump
# targets through every function defined in stacker_main.o, transitively;
# functions defined elsewhere (kernel functions) are not followed. Every
# function reached must name no panic-like symbol in its relocations and make
# no indirect branch; a finding is reported with its call path, demangled.
#
# Branch targets come from the relocation on the instruction when it has one
# (a function symbol, or a section symbol plus offset when the compiler used
# per-function sections), else from the direct target objdump printed. The
# printed target of a relocated branch is only the unrelocated placeholder.
#
# Usage: check-hook-paths.sh BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj="${1:?usage: check-hook-paths.sh BUILD_DIR}/security/stacker/stacker/kernel/stacker_main.o"
[ -f "$obj" ] || die "no $obj: build the kernel first"

# The report names Rust symbols (v0 _R... or legacy _ZN...): demangle them.
if command -v rustfilt >/dev/null 2>&1; then
	demangle=rustfilt
elif command -v c++filt >/dev/null 2>&1; then
	demangle=c++filt
else
	demangle="cat"
fi

report=$(objdump -dr --no-show-raw-insn "$obj" | awk '
	function hex(s,    i, n) {
		n = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	# A branch from function "from" to symbol "sym" (when the relocation
	# names one), else to offset "off" of section "sec"; resolved in END.
	function branch(from, sym, sec, off) {
		nbr++
		brfrom[nbr] = from; brsym[nbr] = sym; brsec[nbr] = sec; broff[nbr] = off
	}
	function finding(f, what) {
		if ((f SUBSEP what) in seen)
			return
		seen[f, what] = 1
		bad[f, ++nbad[f]] = what
	}
	# The function of section sec whose code holds offset off.
	function containing(sec, off,    i, best, at) {
		best = ""; at = -1
		for (i = 1; i <= nfn; i++)
			if (fsec[i] == sec && fstart[i] <= off && fstart[i] > at) {
				at = fstart[i]; best = fname[i]
			}
		return best
	}
	function path(f,    s) {
		s = f
		while (par[f] != "") {
			f = par[f]
			s = f " -> " s
		}
		return s
	}
	# A direct branch whose line had no relocation: its printed target is
	# the real one. Jumps inside the function itself are no call.
	function flush() {
		if (!pend)
			return
		pend = 0
		if (ptarget != pfrom)
			branch(pfrom, "", psec, paddr)
	}
	BEGIN {
		PANIC = "panic|unwrap_failed|expect_failed"
		THUNK = "__x86_indirect_"
	}
	/^Disassembly of section / {
		flush()
		sec = $4; sub(/:$/, "", sec)
		code[sec] = 1
		next
	}
	/^[0-9a-f]+ <.*>:$/ {
		flush()
		fn = $2; gsub(/[<>:]/, "", fn)
		fname[++nfn] = fn; fsec[nfn] = sec; fstart[nfn] = start = hex($1)
		defined[fn] = 1
		# Entry points: the functions of the entry module (kernel/entry.rs),
		# one per hook and dispatch tier, mangled as ...12stacker_main5entry...
		if (fn ~ /12stacker_main5entry[0-9]/ && fn !~ /stacker_rs_/)
			hooks[++nhook] = fn
		next
	}
	fn != "" && $2 ~ /^R_X86_64_/ {
		s = $3; a = 0
		if (match(s, /[-+]0x[0-9a-f]+$/)) {
			a = hex(substr(s, RSTART + 3))
			if (substr(s, RSTART, 1) == "-")
				a = -a
			s = substr(s, 1, RSTART - 1)
		}
		if (s ~ PANIC)
			finding(fn, " -> " s)
		else if (s ~ THUNK)
			finding(fn, ": indirect call through " s)
		else if (pend)
			# PC-relative rel32 at the end of the instruction: the
			# target is the symbol plus addend plus 4.
			branch(fn, s, s, a + 4)
		pend = 0
		next
	}
	fn != "" && /^ *[0-9a-f]+:\t/ {
		flush()
		if (/(call|jmp)[a-z]*[ \t]+\*/) {
			insn = $0
			sub(/^ *[0-9a-f]+:[ \t]+/, "", insn)
			gsub(/[ \t]+/, " ", insn)
			at = $1; sub(/:$/, "", at)
			finding(fn, sprintf(": indirect branch at +0x%x: %s", hex(at) - start, insn))
			next
		}
		for (i = 2; $i ~ /^(cs|ds|es|ss|fs|gs|notrack|bnd|rex[.A-Z]*|data16|addr32)$/; i++)
			;
		if ($i ~ /^(call|j)[a-z]*$/ && $(i + 1) ~ /^[0-9a-f]+$/) {
			pend = 1; pfrom = fn; psec = sec; paddr = hex($(i + 1))
			ptarget = $(i + 2); gsub(/[<>]/, "", ptarget); sub(/[-+]0x[0-9a-f]+$/, "", ptarget)
		}
		next
	}
	{ flush() }
	END {
		flush()
		for (k = 1; k <= nbr; k++) {
			t = ""
			if (brsym[k] in defined)
				t = brsym[k]
			else if (brsec[k] in code)
				t = containing(brsec[k], broff[k])
			f = brfrom[k]
			if (t != "" && t != f && !((f SUBSEP t) in edge)) {
				edge[f, t] = 1
				adj[f, ++nadj[f]] = t
			}
		}
		for (h = 1; h <= nhook; h++)
			ishook[hooks[h]] = 1
		for (h = 1; h <= nhook; h++) {
			delete par
			delete vis
			root = hooks[h]
			par[root] = ""; vis[root] = 1
			head = 1; tail = 1; q[1] = root
			while (head <= tail) {
				f = q[head++]
				# A panic-like function of this object: the path to it
				# is the finding.
				if (f != root && (f ~ PANIC || f ~ THUNK)) {
					print path(f)
					continue
				}
				for (k = 1; k <= nbad[f]; k++)
					print path(f) bad[f, k]
				for (k = 1; k <= nadj[f]; k++) {
					t = adj[f, k]
					if (t in vis)
						continue
					vis[t] = 1; par[t] = f; q[++tail] = t
					if (!(t in ishook))
						reached[t] = 1
				}
			}
		}
		m = 0
		for (t in reached)
			m++
		print "checked " nhook " hook entry points and " m " functions they reach" > "/dev/stderr"
		# No entry point found: the naming changed, and nothing was checked.
		if (nhook == 0)
			print "no hook entry point (stacker_main::entry::*) found in the object"
	}
' | "$demangle")
if [ -n "$report" ]; then
	printf '%s\n' "$report" >&2
	die "hook entry points with a panic path or an indirect branch (above)"
fi
log "hook entry points: no panic path, no indirect branch"
