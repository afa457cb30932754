#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fixtures of the integrity boot test (tests/guest/integrity_test.c):
# signing keys, the EVM HMAC key and an ext4 image whose files carry
# security.ima, security.mlte and security.evm values made on the host.
#
# Usage: integrity-fixtures.sh OUTDIR   (prints the path of the image)
#
# OUTDIR receives:
#   key1.pem cert1.der  RSA-2048 key and self-signed X.509 certificate (DER,
#                       with a subjectKeyIdentifier): the key the guest loads
#                       into integrity/keys and that signs /signed/good
#   key2.pem cert2.der  an unrelated pair, for the signatures that must fail
#   cert3.der ... cert8.der  spare certificates (keys key3.pem ...), which
#                       only fault_injection_test loads: a certificate
#                       loads once, and a load that completes in spite of
#                       an injected fault needs a new one for the next
#   evm.key             the 32-byte raw EVM HMAC key (integrity/evm_key)
#   integrity.img       the ext4 image (8 MiB, UUID $FS_UUID), which the
#                       guest mounts at /mnt/integrity (boottest.py --disk)
#
# The keys are made once and kept; with the same keys, the image is the
# same bytes on every run (fixed UUID, hash seed, times; PKCS#1 v1.5
# signatures and HMACs are deterministic). The image is rebuilt only when
# the keys, this script or what it builds from changed (a stamp of their
# digests), so a second run is a no-op.
#
# Files in the image (fowner = the file's uid, which the test policy
# tests/guest/integrity/test.policy selects on):
#   /hashed/ok          uid 1000, security.ima = evmctl ima_hash
#   /hashed/tampered    uid 1000, the hash of other contents
#   /hashed/nohash      uid 1000, no security.ima
#   /signed/good        uid 1001, evmctl ima_sign with key 1
#   /signed/hashonly    uid 1001, evmctl ima_hash only (no signature)
#   /signed/badsig      uid 1001, signed by key 2 under key 1's key id
#   /signed/unknownkey  uid 1001, signed by key 2 under its own key id
#   /data/m1, /data/m2  uid 1002, plain data (measured by the test policy)
#   /meta/intact        uid 1003, security.ima, security.mlte, good security.evm
#   /meta/forged        uid 1003, as intact but security.mlte changed after
#                       the HMAC was computed
#   /meta/noevm         uid 1003, security.ima, security.mlte, no security.evm
#   /meta/badevm        uid 1003, a 5-byte security.evm
#   /MANIFEST.sha256    sha256sum of every other regular file, with the
#                       paths the guest sees (/mnt/integrity/...)
# and, for mlte_test, not in the manifest and made after e2fsck's check:
#   /mlte/plain         uid 0, no security.mlte (mlte's `sid file`)
#   /mlte/labelled      uid 0, security.mlte = secret_t:s0
#   /mlte/unreadable    uid 0, security.mlte = secret_t:s0 in an xattr block
#                       whose checksum is then broken, so that ext4 refuses
#                       every read of it (EFSBADCRC): a label that cannot
#                       be read
# The executables (/hashed/*, /signed/*) are tests/guest/integrity/hello.c
# with the file's own path appended, so that every file has its own digest.
# Every file in /hashed, /signed and /meta/intact carries a valid
# security.evm (an appraised file needs one once the EVM key is loaded),
# so that each file fails, if it does, for the one reason it is there for.
#
# security.* values are never set on the host's file system (which may
# refuse them): evmctl prints them (-n), debugfs writes them into the image
# (ea_set -f), and security.evm comes from the repository's integrity-hmac
# (evmctl's hmac command is built only with DEBUG). The script then reads
# every value back from the image and checks it on its own: signatures with
# evmctl ima_verify, hashes against sha256sum, HMACs with Python's hmac.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export PATH="$HOME/.cargo/bin:/usr/sbin:/sbin:$PATH"

out=${1:?usage: integrity-fixtures.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The image's file system UUID (s_uuid, covered by the HMAC) and a fixed
# time for mkfs and every inode.
FS_UUID=5eed1e24-0000-4000-8000-1a7e91e7c0de
FIXED_TIME=1700000000
# Where the guest mounts the image (tests/guest/integrity_test.c).
GUEST_MOUNT=/mnt/integrity
# The label /meta/* carry, and the one /meta/forged gets afterwards.
MLTE_LABEL=secret_t:s0
MLTE_FORGED=public_t:s0
IMG=$out/integrity.img

for tool in openssl evmctl mkfs.ext4 debugfs gcc python3 sha256sum; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/setup.sh installs it)"
done

# make_key N: key N.pem and its certificate certN.der, unless both exist.
make_key() {
	local n=$1
	[ -s "$out/key$n.pem" ] && [ -s "$out/cert$n.der" ] && return 0
	log "integrity fixtures: making signing key $n"
	openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -set_serial "$n" \
		-subj "/CN=stacker integrity test key $n" \
		-addext "subjectKeyIdentifier=hash" \
		-addext "basicConstraints=critical,CA:FALSE" \
		-addext "keyUsage=critical,digitalSignature" \
		-keyout "$out/key$n.pem.tmp" -outform DER -out "$out/cert$n.der.tmp" 2>/dev/null \
		|| die "openssl could not make key $n"
	mv "$out/key$n.pem.tmp" "$out/key$n.pem"
	mv "$out/cert$n.der.tmp" "$out/cert$n.der"
}
for n in 1 2 3 4 5 6 7 8; do
	make_key "$n"
done
if [ "$(stat -c %s "$out/evm.key" 2>/dev/null || echo 0)" != 32 ]; then
	log "integrity fixtures: making the EVM HMAC key"
	head -c 32 /dev/urandom >"$out/evm.key.tmp"
	mv "$out/evm.key.tmp" "$out/evm.key"
fi

# Everything the image is made from; the image is kept while it matches.
stamp=$(cat "$0" "$STACKER_ROOT/tests/guest/integrity/hello.c" \
	"$STACKER_ROOT/modules/integrity/formats.rs" "$STACKER_ROOT/stacker/host/integrity_hmac.rs" \
	"$STACKER_ROOT/stacker/host/lib.rs" \
	"$out"/key1.pem "$out"/key2.pem "$out"/cert1.der "$out"/cert2.der "$out"/evm.key |
	sha256sum | cut -d' ' -f1)
if [ -s "$IMG" ] && [ "$(cat "$out/integrity.stamp" 2>/dev/null)" = "$stamp" ]; then
	printf '%s\n' "$IMG"
	exit 0
fi
log "integrity fixtures: building $IMG"
rm -f "$out/integrity.stamp"

build=$out/build
rm -rf "$build"
mkdir -p "$build/tree" "$build/x" "$build/check"
tree=$build/tree

# hex2bin HEX: the bytes of HEX (with or without 0x) on stdout.
hex2bin() {
	local hex=${1#0x}
	# shellcheck disable=SC2059 # the format is the escaped bytes
	printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')"
}

# evmctl_value ARGS...: the hex value `evmctl -n ARGS` prints (its last
# line of hex digits), or failure.
evmctl_value() {
	local v
	v=$(evmctl -n "$@" 2>/dev/null | grep -E '^[0-9a-f]+$' | tail -n1) || true
	[ -n "$v" ] || die "evmctl -n $* printed no value"
	printf '%s\n' "$v"
}

# debugfs_w CMDFILE: runs the debugfs commands in CMDFILE on the image,
# read-write; fails on any error message.
debugfs_w() {
	local err
	err=$(E2FSPROGS_FAKE_TIME=$FIXED_TIME debugfs -w -f "$1" "$IMG" 2>&1 >/dev/null | grep -v '^debugfs [0-9]') || true
	[ -z "$err" ] || die "debugfs -f $1: $err"
}

# debugfs_r CMD: runs one read-only debugfs command; its output.
debugfs_r() {
	debugfs -R "$1" "$IMG" 2>/dev/null
}

gcc -static -Os -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables \
	-Wl,--build-id=none -s -Wall -Wextra -Werror \
	-o "$build/hello" "$STACKER_ROOT/tests/guest/integrity/hello.c" \
	|| die "building tests/guest/integrity/hello.c failed"

# The files: path, uid, mode, kind (exec: the test program; data: text).
FILES=(
	"hashed/ok 1000 0755 exec"
	"hashed/tampered 1000 0755 exec"
	"hashed/nohash 1000 0755 exec"
	"signed/good 1001 0755 exec"
	"signed/hashonly 1001 0755 exec"
	"signed/badsig 1001 0755 exec"
	"signed/unknownkey 1001 0755 exec"
	"data/m1 1002 0644 data"
	"data/m2 1002 0644 data"
	"meta/intact 1003 0644 data"
	"meta/forged 1003 0644 data"
	"meta/noevm 1003 0644 data"
	"meta/badevm 1003 0644 data"
)
for entry in "${FILES[@]}"; do
	read -r path uid mode kind <<<"$entry"
	mkdir -p "$tree/$(dirname "$path")"
	if [ "$kind" = exec ]; then
		cp "$build/hello" "$tree/$path"
		printf '\nintegrity fixture %s\n' "$GUEST_MOUNT/$path" >>"$tree/$path"
	else
		printf 'integrity fixture %s: data\n' "$GUEST_MOUNT/$path" >"$tree/$path"
	fi
	chmod "$mode" "$tree/$path"
done

# The security.ima values (hex, in $build/x/NAME.ima), from the contents
# they describe; the tampered file changes afterwards.
x() { printf '%s/x/%s' "$build" "${1//\//_}"; }
for path in hashed/ok hashed/tampered signed/hashonly meta/intact meta/forged meta/noevm meta/badevm; do
	evmctl_value ima_hash -a sha256 "$tree/$path" >"$(x "$path").ima"
done
evmctl_value ima_sign -a sha256 --key "$out/key1.pem" --keyid-from-cert "$out/cert1.der" \
	"$tree/signed/good" >"$(x signed/good).ima"
evmctl_value ima_sign -a sha256 --key "$out/key2.pem" --keyid-from-cert "$out/cert1.der" \
	"$tree/signed/badsig" >"$(x signed/badsig).ima"
evmctl_value ima_sign -a sha256 --key "$out/key2.pem" --keyid-from-cert "$out/cert2.der" \
	"$tree/signed/unknownkey" >"$(x signed/unknownkey).ima"
printf 'tampered after hashing\n' >>"$tree/hashed/tampered"
for path in meta/intact meta/forged meta/noevm meta/badevm; do
	printf '%s' "$MLTE_LABEL" | od -An -tx1 | tr -d ' \n' >"$(x "$path").mlte"
done

# The manifest: the host's sha256sum of the final contents, guest paths.
(cd "$tree" && find . -type f -print0 | sort -z | xargs -0 sha256sum) |
	sed "s#  \./#  $GUEST_MOUNT/#" >"$build/MANIFEST.sha256"
mv "$build/MANIFEST.sha256" "$tree/MANIFEST.sha256"
chmod 0644 "$tree/MANIFEST.sha256"
find "$tree" -type d -exec chmod 0755 {} +
find "$tree" -exec touch -h -d "@$FIXED_TIME" {} +

rm -f "$IMG"
truncate -s 8M "$IMG"
E2FSPROGS_FAKE_TIME=$FIXED_TIME mkfs.ext4 -q -F -t ext4 -b 4096 -I 256 -N 64 -O ^has_journal \
	-L integrity -U "$FS_UUID" -E "hash_seed=$FS_UUID,root_owner=0:0" -d "$tree" "$IMG" \
	|| die "mkfs.ext4 -d $tree failed"

# Owners, times and the xattrs, with debugfs. (mkfs.ext4 -d would copy
# owners from the tree, but chown needs root; debugfs does not.)
cmds=$build/debugfs.cmds
: >"$cmds"
for entry in "${FILES[@]}"; do
	read -r path uid _ _ <<<"$entry"
	for field in uid gid; do
		echo "set_inode_field /$path $field $uid" >>"$cmds"
	done
	if [ -s "$(x "$path").ima" ]; then
		hex2bin "$(cat "$(x "$path").ima")" >"$(x "$path").ima.bin"
		echo "ea_set -f $(x "$path").ima.bin /$path security.ima" >>"$cmds"
	fi
	if [ -s "$(x "$path").mlte" ]; then
		hex2bin "$(cat "$(x "$path").mlte")" >"$(x "$path").mlte.bin"
		echo "ea_set -f $(x "$path").mlte.bin /$path security.mlte" >>"$cmds"
	fi
done
debugfs_w "$cmds"

# stat_field PATH NAME: a number from debugfs's stat of PATH ("Inode",
# "Generation", "User", "Group", "Mode").
stat_field() {
	debugfs_r "stat /$1" | tr -s ' \t' '\n' | awk -v k="$2:" '$0 == k { getline; print; exit }'
}

# The security.evm values: after the xattrs they cover are in the image.
hmac_bin=$STACKER_ROOT/target/debug/integrity-hmac
(cd "$STACKER_ROOT" && cargo build --quiet --bin integrity-hmac) || die "building integrity-hmac failed"
: >"$cmds"
for path in hashed/ok hashed/tampered hashed/nohash signed/good signed/hashonly signed/badsig \
	signed/unknownkey meta/intact meta/forged; do
	args=(--key "$out/evm.key" --uuid "$FS_UUID"
		--ino "$(stat_field "$path" Inode)" --generation "$(stat_field "$path" Generation)"
		--uid "$(stat_field "$path" User)" --gid "$(stat_field "$path" Group)"
		--mode "$(printf '%o' $((0100000 | 0$(stat_field "$path" Mode))))")
	[ -s "$(x "$path").ima" ] && args+=(--xattr "security.ima=$(cat "$(x "$path").ima")")
	[ -s "$(x "$path").mlte" ] && args+=(--xattr "security.mlte=$(cat "$(x "$path").mlte")")
	"$hmac_bin" "${args[@]}" >"$(x "$path").evm" || die "integrity-hmac failed for /$path"
	hex2bin "$(cat "$(x "$path").evm")" >"$(x "$path").evm.bin"
	echo "ea_set -f $(x "$path").evm.bin /$path security.evm" >>"$cmds"
done
# The broken ones: a label changed offline, an HMAC of 5 bytes.
printf '%s' "$MLTE_FORGED" >"$build/x/forged.mlte.bin"
echo "ea_set -f $build/x/forged.mlte.bin /meta/forged security.mlte" >>"$cmds"
printf '\002\001\002\003\004' >"$build/x/badevm.evm.bin"
echo "ea_set -f $build/x/badevm.evm.bin /meta/badevm security.evm" >>"$cmds"
# The change times that mkfs (directories) and debugfs's writes set to
# the real time, back to the fixed time.
(cd "$tree" && find . -mindepth 1 -print | sort) | while read -r path; do
	echo "set_inode_field /${path#./} ctime @$FIXED_TIME"
done >>"$cmds"
echo "set_inode_field / ctime @$FIXED_TIME" >>"$cmds"
debugfs_w "$cmds"

# ---- Checks of the image as built, from the image. ----

# ea_hex PATH NAME: the xattr's value in the image, hex ("" if none).
ea_hex() {
	debugfs_r "ea_get -f $build/check/ea /$1 $2" >/dev/null
	if [ -s "$build/check/ea" ]; then od -An -tx1 -v "$build/check/ea" | tr -d ' \n'; fi
	rm -f "$build/check/ea"
}
# dump PATH: the file's contents out of the image, into $build/check.
dump() {
	local f=$build/check/${1//\//_}
	debugfs_r "dump /$1 $f" >/dev/null
	printf '%s\n' "$f"
}

fails=0
bad() {
	log "integrity fixtures: check failed: $*"
	fails=$((fails + 1))
}

# The manifest matches what the image holds.
(cd "$build/check" && debugfs_r "dump /MANIFEST.sha256 manifest" >/dev/null)
while read -r sum gpath; do
	path=${gpath#"$GUEST_MOUNT"/}
	[ "$(sha256sum <"$(dump "$path")" | cut -d' ' -f1)" = "$sum" ] || bad "/$path: contents differ from MANIFEST.sha256"
done <"$build/check/manifest"
[ "$(wc -l <"$build/check/manifest")" = "${#FILES[@]}" ] || bad "MANIFEST.sha256 does not list ${#FILES[@]} files"

# Owners.
for entry in "${FILES[@]}"; do
	read -r path uid _ _ <<<"$entry"
	[ "$(stat_field "$path" User)" = "$uid" ] && [ "$(stat_field "$path" Group)" = "$uid" ] \
		|| bad "/$path: owner is not $uid:$uid"
done

# Hashes: 0x04 0x04 and the sha256 of the contents, or of other contents.
# hash_ok PATH: whether security.ima is the digest of the contents.
hash_ok() {
	[ "$(ea_hex "$1" security.ima)" = "0404$(sha256sum <"$(dump "$1")" | cut -d' ' -f1)" ]
}
for path in hashed/ok signed/hashonly meta/intact meta/forged meta/noevm meta/badevm; do
	hash_ok "$path" || bad "/$path: security.ima is not 0x0404 and the file's sha256"
done
hash_ok hashed/tampered && bad "/hashed/tampered: security.ima matches its contents"
[ "$(ea_hex hashed/tampered security.ima)" = "$(cat "$(x hashed/tampered).ima")" ] \
	|| bad "/hashed/tampered: security.ima is not the hash made before the change"
for path in hashed/nohash data/m1 data/m2; do
	[ -z "$(ea_hex "$path" security.ima)" ] || bad "/$path: has a security.ima"
done

# Signatures, with evmctl ima_verify on the file and its value.
# verify PATH CERT: whether evmctl verifies the signature with CERT.
verify() {
	local f
	f=$(dump "$1")
	debugfs_r "ea_get -f $f.sig /$1 security.ima" >/dev/null
	evmctl ima_verify --key "$2" --sigfile "$f" >/dev/null 2>&1
}
verify signed/good "$out/cert1.der" || bad "/signed/good: evmctl ima_verify fails with key 1"
verify signed/badsig "$out/cert1.der" && bad "/signed/badsig: evmctl ima_verify passes with key 1"
verify signed/unknownkey "$out/cert1.der" && bad "/signed/unknownkey: evmctl ima_verify passes with key 1"
verify signed/unknownkey "$out/cert2.der" || bad "/signed/unknownkey: evmctl ima_verify fails with key 2"
[ "$(ea_hex signed/good security.ima | cut -c1-6)" = 030204 ] || bad "/signed/good: not a v2 sha256 signature"

# HMACs, recomputed with Python's hmac from what the image holds.
# evm_ok PATH: whether security.evm is the HMAC of the image's values.
evm_ok() {
	python3 - "$out/evm.key" "$FS_UUID" "$(ea_hex "$1" security.evm)" \
		"$(ea_hex "$1" security.ima)" "$(ea_hex "$1" security.mlte)" \
		"$(stat_field "$1" Inode)" "$(stat_field "$1" Generation)" "$(stat_field "$1" User)" \
		"$(stat_field "$1" Group)" "$(stat_field "$1" Mode)" <<'PY'
import hashlib, hmac, struct, sys, uuid
key = open(sys.argv[1], "rb").read()
fs_uuid, evm, ima, mlte = sys.argv[2:6]
ino, gen, uid, gid, mode = (int(a, 0) for a in sys.argv[6:10] + ["0o" + sys.argv[10]])
# security.ima then security.mlte (EVM's order), h_misc, the fs UUID.
data = bytes.fromhex(ima) + bytes.fromhex(mlte)
data += struct.pack("<QIIIH2x", ino, gen, uid, gid, 0o100000 | mode)
data += uuid.UUID(fs_uuid).bytes
sys.exit(0 if evm == "02" + hmac.new(key, data, hashlib.sha256).hexdigest() else 1)
PY
}
for path in hashed/ok hashed/tampered hashed/nohash signed/good signed/hashonly signed/badsig \
	signed/unknownkey meta/intact; do
	evm_ok "$path" || bad "/$path: security.evm is not the HMAC of its values"
done
evm_ok meta/forged && bad "/meta/forged: security.evm still matches"
[ "$(ea_hex meta/forged security.mlte)" = "$(printf '%s' "$MLTE_FORGED" | od -An -tx1 | tr -d ' \n')" ] \
	|| bad "/meta/forged: security.mlte is not '$MLTE_FORGED'"
[ "$(ea_hex meta/intact security.mlte)" = "$(printf '%s' "$MLTE_LABEL" | od -An -tx1 | tr -d ' \n')" ] \
	|| bad "/meta/intact: security.mlte is not '$MLTE_LABEL'"
[ -z "$(ea_hex meta/noevm security.evm)" ] || bad "/meta/noevm: has a security.evm"
[ "$(ea_hex meta/badevm security.evm)" = 0201020304 ] || bad "/meta/badevm: security.evm is not the 5 bytes"

[ "$fails" -eq 0 ] || die "integrity fixtures: $fails checks of $IMG failed"
e2fsck -fn "$IMG" >/dev/null 2>&1 || die "e2fsck finds errors in $IMG"

# ---- mlte's files (after the check: e2fsck would report the broken one). ----
# /mlte/unreadable: trusted.pad fills the inode's xattr space, so that
# security.mlte goes to an xattr block; then one byte of the block's
# h_checksum (offset 16 of struct ext4_xattr_header) is flipped.
printf 'mlte fixture\n' >"$build/x/mlte.data"
head -c 64 /dev/zero | tr '\0' p >"$build/x/mlte.pad"
printf '%s' "$MLTE_LABEL" >"$build/x/mlte.label"
cat >"$cmds" <<EOC
mkdir /mlte
write $build/x/mlte.data /mlte/plain
write $build/x/mlte.data /mlte/labelled
ea_set -f $build/x/mlte.label /mlte/labelled security.mlte
write $build/x/mlte.data /mlte/unreadable
ea_set -f $build/x/mlte.pad /mlte/unreadable trusted.pad
ea_set -f $build/x/mlte.label /mlte/unreadable security.mlte
EOC
for path in mlte mlte/plain mlte/labelled mlte/unreadable; do
	for field in ctime mtime atime; do
		echo "set_inode_field /$path $field @$FIXED_TIME"
	done
done >>"$cmds"
debugfs_w "$cmds"
[ "$(ea_hex mlte/labelled security.mlte)" = "$(printf '%s' "$MLTE_LABEL" | od -An -tx1 | tr -d ' \n')" ] \
	|| die "/mlte/labelled: security.mlte is not '$MLTE_LABEL'"
acl=$(debugfs_r "stat /mlte/unreadable" | sed -n 's/^File ACL: \([0-9]*\).*/\1/p')
[ -n "$acl" ] && [ "$acl" -gt 0 ] || die "/mlte/unreadable has no xattr block"
dd if="$IMG" bs=4096 skip="$acl" count=1 status=none | grep -qa "$MLTE_LABEL" \
	|| die "security.mlte of /mlte/unreadable is not in its xattr block $acl"
byte=$(dd if="$IMG" bs=1 skip=$((acl * 4096 + 16)) count=1 status=none | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 0xff)))" \
	| dd of="$IMG" bs=1 seek=$((acl * 4096 + 16)) conv=notrunc status=none
fsck=$(e2fsck -fn "$IMG" 2>&1) || true
grep -q "extended attribute block $acl passes checks, but checksum does not match" <<<"$fsck" \
	|| die "e2fsck does not see the broken xattr block $acl of /mlte/unreadable"

echo "$stamp" >"$out/integrity.stamp"
log "integrity fixtures: $IMG built and checked"
printf '%s\n' "$IMG"
