#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fixtures of the integrity boot test (tests/guest/integrity_test.c):
signing keys, the EVM HMAC key and an ext4 image whose files carry
security.ima, security.mlte and security.evm values made on the host.

Usage: integrity-fixtures.py OUTDIR   (prints the path of the image)
  logs to stderr ("[stacker] ..."); exits 1 with "[stacker] error: ..."
  when a tool fails or a check of the image fails.

OUTDIR receives:
  key1.pem cert1.der  RSA-2048 key and self-signed X.509 certificate (DER,
                      with a subjectKeyIdentifier): the key the guest loads
                      into integrity/keys and that signs /signed/good
  key2.pem cert2.der  an unrelated pair, for the signatures that must fail
  cert3.der ... cert8.der  spare certificates (keys key3.pem ...), which
                      only fault_injection_test loads: a certificate
                      loads once, and a load that completes in spite of
                      an injected fault needs a new one for the next
  evm.key             the 32-byte raw EVM HMAC key (integrity/evm_key)
  integrity.img       the ext4 image (8 MiB, UUID FS_UUID), which the
                      guest mounts at /mnt/integrity (boottest.py --disk)
  integrity.stamp     the digest of what the image was made from
  build/              the tree, values and debugfs commands of the last build

The keys are made once and kept; with the same keys, the image is the
same bytes on every run (fixed UUID, hash seed, times; PKCS#1 v1.5
signatures and HMACs are deterministic). The image is rebuilt only when
the keys, this program or what it builds from changed (a stamp of their
digests, integrity.stamp), so a second run is a no-op.

Files in the image (fowner = the file's uid, which the test policy
tests/guest/integrity/test.policy selects on):
  /hashed/ok          uid 1000, security.ima = evmctl ima_hash
  /hashed/tampered    uid 1000, the hash of other contents
  /hashed/nohash      uid 1000, no security.ima
  /signed/good        uid 1001, evmctl ima_sign with key 1
  /signed/hashonly    uid 1001, evmctl ima_hash only (no signature)
  /signed/badsig      uid 1001, signed by key 2 under key 1's key id
  /signed/unknownkey  uid 1001, signed by key 2 under its own key id
  /data/m1, /data/m2  uid 1002, plain data (measured by the test policy)
  /meta/intact        uid 1003, security.ima, security.mlte, good security.evm
  /meta/forged        uid 1003, as intact but security.mlte changed after
                      the HMAC was computed
  /meta/noevm         uid 1003, security.ima, security.mlte, no security.evm
  /meta/badevm        uid 1003, a 5-byte security.evm
  /MANIFEST.sha256    sha256sum of every other regular file, with the
                      paths the guest sees (/mnt/integrity/...)
and, for mlte_test, not in the manifest and made after e2fsck's check:
  /mlte/plain         uid 0, no security.mlte (mlte's `sid file`)
  /mlte/labelled      uid 0, security.mlte = system_u:object_r:secret_t:s0
  /mlte/unreadable    uid 0, security.mlte = system_u:object_r:secret_t:s0 in an xattr block
                      whose checksum is then broken, so that ext4 refuses
                      every read of it (EFSBADCRC): a label that cannot
                      be read
The executables (/hashed/*, /signed/*) are tests/guest/integrity/hello.c
with the file's own path appended, so that every file has its own digest.
Every file in /hashed, /signed and /meta/intact carries a valid
security.evm (an appraised file needs one once the EVM key is loaded),
so that each file fails, if it does, for the one reason it is there for.

security.* values are never set on the host's file system (which may
refuse them): evmctl prints them (-n), debugfs writes them into the image
(ea_set -f), and security.evm comes from the repository's integrity-hmac
(evmctl's hmac command is built only with DEBUG). The program then reads
every value back from the image and checks it on its own: signatures with
evmctl ima_verify, hashes with hashlib, HMACs with hmac (evm_value).

External tools: openssl, evmctl, mkfs.ext4, debugfs, e2fsck, gcc and
cargo (for integrity-hmac); PATH gets ~/.cargo/bin, /usr/sbin and /sbin
first. The repository root (STACKER_ROOT) is the directory above this
program's, as scripts/lib.sh sets it: from the file's location, whatever
STACKER_ROOT the environment has (lib.sh overrides it too).
"""

import collections
import hashlib
import hmac
import os
import re
import shutil
import struct
import subprocess
import sys
import uuid

STACKER_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The image's file system UUID (s_uuid, covered by the HMAC) and a fixed
# time for mkfs and every inode.
FS_UUID = "5eed1e24-0000-4000-8000-1a7e91e7c0de"
FIXED_TIME = 1700000000
# Where the guest mounts the image (tests/guest/integrity_test.c).
GUEST_MOUNT = "/mnt/integrity"
# The label /meta/* carry, and the one /meta/forged gets afterwards.
MLTE_LABEL = b"system_u:object_r:secret_t:s0"
MLTE_FORGED = b"system_u:object_r:public_t:s0"
# /meta/badevm's security.evm: an HMAC's type byte and 4 bytes.
BAD_EVM = b"\x02\x01\x02\x03\x04"
IMAGE = "integrity.img"
STAMP = "integrity.stamp"
IMAGE_SIZE = 8 << 20
BLOCK_SIZE = 4096
# h_checksum's offset in struct ext4_xattr_header (h_magic, h_refcount,
# h_blocks, h_hash: four __le32 before it).
XATTR_CHECKSUM_OFFSET = 16
# i_mode's file type bits of a regular file (S_IFREG).
S_IFREG = 0o100000
# security.evm's type byte of an HMAC (EVM_XATTR_HMAC).
EVM_XATTR_HMAC = b"\x02"
# security.ima's prefix of a SHA-256 hash (IMA_XATTR_DIGEST_NG, HASH_ALGO_SHA256).
IMA_SHA256 = b"\x04\x04"
# security.ima's prefix of a v2 SHA-256 signature (EVM_IMA_XATTR_DIGSIG,
# version 2, HASH_ALGO_SHA256).
IMA_SIG_V2_SHA256 = b"\x03\x02\x04"
KEYS = range(1, 9)
TOOLS = ("openssl", "evmctl", "mkfs.ext4", "debugfs", "e2fsck", "gcc")
# What the image is made from, besides this program and the keys.
SOURCES = ("tests/guest/integrity/hello.c", "modules/integrity/formats.rs",
           "stacker/host/integrity_hmac.rs", "stacker/host/lib.rs")
STAMP_KEYS = ("key1.pem", "key2.pem", "cert1.der", "cert2.der", "evm.key")

# The files: path, uid (and gid), mode, kind (exec: the test program;
# data: text).
Fixture = collections.namedtuple("Fixture", "path uid mode kind")
FILES = (
    Fixture("hashed/ok", 1000, 0o755, "exec"),
    Fixture("hashed/tampered", 1000, 0o755, "exec"),
    Fixture("hashed/nohash", 1000, 0o755, "exec"),
    Fixture("signed/good", 1001, 0o755, "exec"),
    Fixture("signed/hashonly", 1001, 0o755, "exec"),
    Fixture("signed/badsig", 1001, 0o755, "exec"),
    Fixture("signed/unknownkey", 1001, 0o755, "exec"),
    Fixture("data/m1", 1002, 0o644, "data"),
    Fixture("data/m2", 1002, 0o644, "data"),
    Fixture("meta/intact", 1003, 0o644, "data"),
    Fixture("meta/forged", 1003, 0o644, "data"),
    Fixture("meta/noevm", 1003, 0o644, "data"),
    Fixture("meta/badevm", 1003, 0o644, "data"),
)
# security.ima by evmctl ima_hash, of the contents they have then.
HASHED = ("hashed/ok", "hashed/tampered", "signed/hashonly", "meta/intact", "meta/forged",
          "meta/noevm", "meta/badevm")
# security.ima by evmctl ima_sign: path, signing key, certificate of the key id.
SIGNED = (("signed/good", 1, 1), ("signed/badsig", 2, 1), ("signed/unknownkey", 2, 2))
# security.mlte = MLTE_LABEL.
LABELLED = ("meta/intact", "meta/forged", "meta/noevm", "meta/badevm")
# A good security.evm (before /meta/forged's label changes).
WITH_EVM = ("hashed/ok", "hashed/tampered", "hashed/nohash", "signed/good", "signed/hashonly",
            "signed/badsig", "signed/unknownkey", "meta/intact", "meta/forged")
# security.ima must be 0x0404 and the contents' SHA-256.
HASH_MATCHES = ("hashed/ok", "signed/hashonly", "meta/intact", "meta/forged", "meta/noevm",
                "meta/badevm")
NO_IMA = ("hashed/nohash", "data/m1", "data/m2")
# mlte_test's files, made after the check.
MLTE_DIR = "mlte"
MLTE_FILES = ("mlte/plain", "mlte/labelled", "mlte/unreadable")
MLTE_DATA = b"mlte fixture\n"
# trusted.pad fills the inode's xattr space, so that /mlte/unreadable's
# security.mlte goes to an xattr block.
MLTE_PAD = b"p" * 64


class Fatal(Exception):
    """A failure that ends the program (lib.sh's die)."""


def log(msg):
    print(f"[stacker] {msg}", file=sys.stderr, flush=True)


# ---- Pure parts: values and parsing. ----

def evm_input(ima, mlte, ino, generation, uid, gid, mode, fs_uuid):
    """The bytes EVM's HMAC covers: security.ima then security.mlte (the
    covered xattrs this image has, in EVM_XATTRS order; b"" when absent),
    struct h_misc of a 64-bit kernel (mode is the whole i_mode), then the
    file system's UUID."""
    return (ima + mlte + struct.pack("<QIIIH2x", ino, generation, uid, gid, mode)
            + uuid.UUID(fs_uuid).bytes)


def evm_value(key, data):
    """security.evm of an HMAC over data: 0x02 and HMAC-SHA256."""
    return EVM_XATTR_HMAC + hmac.new(key, data, hashlib.sha256).digest()


def ima_hash_value(contents):
    """security.ima of a SHA-256 hash of contents."""
    return IMA_SHA256 + hashlib.sha256(contents).digest()


STAT_FIELD = re.compile(r"(?<!\S)(Inode|Generation|User|Group|Mode):\s+(\S+)")
FILE_ACL = re.compile(r"^File ACL: ([0-9]+)", re.M)


def parse_stat(text):
    """The numbers of a `debugfs -R "stat /PATH"` output: ino, generation,
    uid, gid, mode (the permission bits, as debugfs prints them, in
    octal) and acl (the xattr block, 0 for none), by the first "Name:" of
    each."""
    fields = {}
    for name, value in STAT_FIELD.findall(text):
        fields.setdefault(name, value)
    missing = {"Inode", "Generation", "User", "Group", "Mode"} - fields.keys()
    if missing:
        raise ValueError(f"no {', '.join(sorted(missing))} in debugfs stat output")
    acl = FILE_ACL.search(text)
    return {"ino": int(fields["Inode"]), "generation": int(fields["Generation"]),
            "uid": int(fields["User"]), "gid": int(fields["Group"]),
            "mode": int(fields["Mode"], 8), "acl": int(acl.group(1)) if acl else 0}


def manifest_lines(tree, paths):
    """MANIFEST.sha256 of the files paths (relative to tree), as
    sha256sum prints it, with the guest's paths, in byte order."""
    lines = []
    for path in sorted(paths):
        with open(os.path.join(tree, path), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        lines.append(f"{digest}  {GUEST_MOUNT}/{path}\n")
    return "".join(lines)


def parse_manifest(text):
    """The (sha256 hex, path in the image) of each line of a
    MANIFEST.sha256; raises ValueError on a line that is not
    "HEX  /mnt/integrity/PATH"."""
    entries = []
    for line in text.splitlines():
        parts = line.split(None, 1)
        prefix = GUEST_MOUNT + "/"
        if len(parts) != 2 or not parts[1].startswith(prefix):
            raise ValueError(f"bad MANIFEST.sha256 line: {line!r}")
        entries.append((parts[0], parts[1][len(prefix):]))
    return entries


def checksum_offset(acl_block):
    """The offset in the image of h_checksum's first byte in the xattr
    block acl_block."""
    return acl_block * BLOCK_SIZE + XATTR_CHECKSUM_OFFSET


def flip_byte(path, offset):
    """Inverts every bit of the byte at offset of the file path, in place."""
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        if len(byte) != 1:
            raise Fatal(f"{path}: no byte at offset {offset}")
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0xff]))


def hex_value(text):
    """The bytes of the last line of hex digits in text (evmctl -n's and
    integrity-hmac's output, the latter with 0x), or None."""
    value = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("0x"):
            line = line[2:]
        if re.fullmatch(r"[0-9a-f]+", line) and len(line) % 2 == 0:
            value = bytes.fromhex(line)
    return value


def x_name(path):
    """The name of a path's values under build/x: slashes become _."""
    return path.replace("/", "_")


# ---- The output directory: keys and the stamp. ----

def make_key(out, n):
    """Key N (keyN.pem) and its certificate (certN.der), unless both exist."""
    key, cert = os.path.join(out, f"key{n}.pem"), os.path.join(out, f"cert{n}.der")
    if nonempty(key) and nonempty(cert):
        return
    log(f"integrity fixtures: making signing key {n}")
    r = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "36500",
         "-set_serial", str(n), "-subj", f"/CN=stacker integrity test key {n}",
         "-addext", "subjectKeyIdentifier=hash",
         "-addext", "basicConstraints=critical,CA:FALSE",
         "-addext", "keyUsage=critical,digitalSignature",
         "-keyout", key + ".tmp", "-outform", "DER", "-out", cert + ".tmp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        raise Fatal(f"openssl could not make key {n}")
    os.replace(key + ".tmp", key)
    os.replace(cert + ".tmp", cert)


def make_evm_key(out):
    """evm.key, 32 random bytes, unless it has 32 bytes."""
    path = os.path.join(out, "evm.key")
    if os.path.isfile(path) and os.path.getsize(path) == 32:
        return
    log("integrity fixtures: making the EVM HMAC key")
    with open(path + ".tmp", "wb") as f:
        f.write(os.urandom(32))
    os.replace(path + ".tmp", path)


def nonempty(path):
    return os.path.isfile(path) and os.path.getsize(path) > 0


def stamp_of(out):
    """The digest of everything the image is made from: this program's
    text, the sources of SOURCES and the keys of STAMP_KEYS."""
    h = hashlib.sha256()
    for path in ([os.path.abspath(__file__)]
                 + [os.path.join(STACKER_ROOT, s) for s in SOURCES]
                 + [os.path.join(out, k) for k in STAMP_KEYS]):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def up_to_date(out, stamp):
    """Whether the image exists and was made from what stamp covers."""
    try:
        with open(os.path.join(out, STAMP)) as f:
            kept = f.read().rstrip("\n")
    except OSError:
        return False
    return nonempty(os.path.join(out, IMAGE)) and kept == stamp


# ---- Tools. ----

def check_tools():
    for tool in TOOLS:
        if shutil.which(tool) is None:
            raise Fatal(f"{tool} missing (scripts/setup.sh installs it)")


def evmctl_value(*args):
    """The value `evmctl -n ARGS` prints (its last line of hex digits)."""
    r = subprocess.run(["evmctl", "-n", *args], capture_output=True, text=True)
    value = hex_value(r.stdout)
    if not value:
        raise Fatal(f"evmctl -n {' '.join(args)} printed no value")
    return value


def fake_time_env():
    return dict(os.environ, E2FSPROGS_FAKE_TIME=str(FIXED_TIME))


class Image:
    """The image, read and written with debugfs; check holds the files
    read back out of it (build/check)."""

    def __init__(self, path, build):
        self.path = path
        self.build = build
        self.check = os.path.join(build, "check")
        self.cmds = os.path.join(build, "debugfs.cmds")

    def write(self, commands):
        """Runs the debugfs commands on the image, read-write, from the
        file build/debugfs.cmds; fails on any error message."""
        with open(self.cmds, "w") as f:
            f.writelines(c + "\n" for c in commands)
        r = subprocess.run(["debugfs", "-w", "-f", self.cmds, self.path], env=fake_time_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        err = [line for line in r.stderr.splitlines()
               if line and not re.match(r"debugfs [0-9]", line)]
        if err:
            raise Fatal(f"debugfs -f {self.cmds}: " + "\n".join(err))

    def read(self, command):
        """The output of one read-only debugfs command."""
        return subprocess.run(["debugfs", "-R", command, self.path], capture_output=True,
                              text=True).stdout

    def stat(self, path):
        """parse_stat of /path."""
        try:
            return parse_stat(self.read(f"stat /{path}"))
        except ValueError as e:
            raise Fatal(f"/{path}: {e}") from None

    def xattr(self, path, name):
        """The xattr's value in the image (b"" if none)."""
        tmp = os.path.join(self.check, "ea")
        self.read(f"ea_get -f {tmp} /{path} {name}")
        try:
            with open(tmp, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def dump(self, path):
        """The file's contents out of the image, into build/check; the
        copy's path."""
        dest = os.path.join(self.check, x_name(path))
        if os.path.exists(dest):
            os.remove(dest)
        self.read(f"dump /{path} {dest}")
        if not os.path.exists(dest):
            raise Fatal(f"/{path}: not in {self.path}")
        return dest

    def contents(self, path):
        with open(self.dump(path), "rb") as f:
            return f.read()


# ---- The build. ----

def build_hello(build):
    """tests/guest/integrity/hello.c as a small static executable."""
    out = os.path.join(build, "hello")
    r = subprocess.run(
        ["gcc", "-static", "-Os", "-nostdlib", "-fno-stack-protector",
         "-fno-asynchronous-unwind-tables", "-Wl,--build-id=none", "-s", "-Wall", "-Wextra",
         "-Werror", "-o", out, os.path.join(STACKER_ROOT, "tests/guest/integrity/hello.c")])
    if r.returncode != 0:
        raise Fatal("building tests/guest/integrity/hello.c failed")
    with open(out, "rb") as f:
        return f.read()


def fixture_contents(fixture, hello):
    guest = f"{GUEST_MOUNT}/{fixture.path}"
    if fixture.kind == "exec":
        return hello + f"\nintegrity fixture {guest}\n".encode()
    return f"integrity fixture {guest}: data\n".encode()


def write_tree(tree, hello):
    """The files of FILES in tree, with their modes."""
    for fixture in FILES:
        path = os.path.join(tree, fixture.path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(fixture_contents(fixture, hello))
        os.chmod(path, fixture.mode)


def ima_values(out, tree):
    """security.ima of each file that has one, by path: from the contents
    they describe (before /hashed/tampered changes)."""
    ima = {path: evmctl_value("ima_hash", "-a", "sha256", os.path.join(tree, path))
           for path in HASHED}
    for path, key, cert in SIGNED:
        ima[path] = evmctl_value("ima_sign", "-a", "sha256",
                                 "--key", os.path.join(out, f"key{key}.pem"),
                                 "--keyid-from-cert", os.path.join(out, f"cert{cert}.der"),
                                 os.path.join(tree, path))
    return ima


def tamper(tree):
    with open(os.path.join(tree, "hashed/tampered"), "ab") as f:
        f.write(b"tampered after hashing\n")


def finish_tree(tree):
    """The manifest, then every directory 0755 and every time FIXED_TIME."""
    paths = [os.path.relpath(os.path.join(d, n), tree)
             for d, _, names in os.walk(tree) for n in names]
    text = manifest_lines(tree, paths)
    manifest = os.path.join(tree, "MANIFEST.sha256")
    with open(manifest, "w") as f:
        f.write(text)
    os.chmod(manifest, 0o644)
    for d, _, _ in os.walk(tree):
        os.chmod(d, 0o755)
    for path in [tree] + [os.path.join(tree, p) for p in tree_entries(tree)]:
        os.utime(path, ns=(FIXED_TIME * 10**9,) * 2, follow_symlinks=False)


def tree_entries(tree):
    """Every path under tree (not tree itself), relative, in byte order."""
    paths = []
    for d, dirs, names in os.walk(tree):
        paths += [os.path.relpath(os.path.join(d, n), tree) for n in dirs + names]
    return sorted(paths)


def make_image(img, tree):
    if os.path.lexists(img):
        os.remove(img)
    with open(img, "wb") as f:
        f.truncate(IMAGE_SIZE)
    r = subprocess.run(
        ["mkfs.ext4", "-q", "-F", "-t", "ext4", "-b", str(BLOCK_SIZE), "-I", "256", "-N", "64",
         "-O", "^has_journal", "-L", "integrity", "-U", FS_UUID,
         "-E", f"hash_seed={FS_UUID},root_owner=0:0", "-d", tree, img], env=fake_time_env())
    if r.returncode != 0:
        raise Fatal(f"mkfs.ext4 -d {tree} failed")


def value_file(build, name, value):
    """value in build/x/NAME, for debugfs's ea_set -f; its path."""
    path = os.path.join(build, "x", name)
    with open(path, "wb") as f:
        f.write(value)
    return path


def set_owners_and_values(image, ima):
    """Owners and the security.ima and security.mlte values. (mkfs.ext4 -d
    would copy owners from the tree, but chown needs root; debugfs does
    not.)"""
    commands = []
    for fixture in FILES:
        p = fixture.path
        commands += [f"set_inode_field /{p} {field} {fixture.uid}" for field in ("uid", "gid")]
        if p in ima:
            f = value_file(image.build, x_name(p) + ".ima.bin", ima[p])
            commands.append(f"ea_set -f {f} /{p} security.ima")
        if p in LABELLED:
            f = value_file(image.build, x_name(p) + ".mlte.bin", MLTE_LABEL)
            commands.append(f"ea_set -f {f} /{p} security.mlte")
    image.write(commands)


def build_integrity_hmac():
    r = subprocess.run(["cargo", "build", "--quiet", "--bin", "integrity-hmac"], cwd=STACKER_ROOT)
    if r.returncode != 0:
        raise Fatal("building integrity-hmac failed")
    return os.path.join(STACKER_ROOT, "target/debug/integrity-hmac")


def integrity_hmac(hmac_bin, out, st, ima, mlte):
    """security.evm by integrity-hmac for a file with debugfs stat st."""
    args = [hmac_bin, "--key", os.path.join(out, "evm.key"), "--uuid", FS_UUID,
            "--ino", str(st["ino"]), "--generation", str(st["generation"]),
            "--uid", str(st["uid"]), "--gid", str(st["gid"]),
            "--mode", f"{S_IFREG | st['mode']:o}"]
    if ima:
        args += ["--xattr", f"security.ima={ima.hex()}"]
    if mlte:
        args += ["--xattr", f"security.mlte={mlte.hex()}"]
    r = subprocess.run(args, capture_output=True, text=True)
    value = hex_value(r.stdout) if r.returncode == 0 else None
    if not value:
        raise Fatal(f"integrity-hmac failed: {r.stderr.strip()}")
    return value


def set_evm_and_times(image, out, tree, ima):
    """The security.evm values (after the xattrs they cover are in the
    image), the broken ones (a label changed offline, an HMAC of 5 bytes),
    and the change times that mkfs (directories) and debugfs's writes set
    to the real time, back to FIXED_TIME."""
    hmac_bin = build_integrity_hmac()
    commands = []
    for p in WITH_EVM:
        mlte = MLTE_LABEL if p in LABELLED else b""
        try:
            evm = integrity_hmac(hmac_bin, out, image.stat(p), ima.get(p, b""), mlte)
        except Fatal as e:
            raise Fatal(f"/{p}: {e}") from None
        f = value_file(image.build, x_name(p) + ".evm.bin", evm)
        commands.append(f"ea_set -f {f} /{p} security.evm")
    f = value_file(image.build, "forged.mlte.bin", MLTE_FORGED)
    commands.append(f"ea_set -f {f} /meta/forged security.mlte")
    f = value_file(image.build, "badevm.evm.bin", BAD_EVM)
    commands.append(f"ea_set -f {f} /meta/badevm security.evm")
    commands += [f"set_inode_field /{p} ctime @{FIXED_TIME}" for p in tree_entries(tree)]
    commands.append(f"set_inode_field / ctime @{FIXED_TIME}")
    image.write(commands)


# ---- Checks of the image as built, from the image. ----

def check_manifest(image):
    """The manifest lists every file of FILES, with the contents the image
    holds."""
    try:
        entries = parse_manifest(image.contents("MANIFEST.sha256").decode())
    except (ValueError, UnicodeDecodeError) as e:
        return [str(e)]
    bad = [f"/{path}: contents differ from MANIFEST.sha256" for digest, path in entries
           if hashlib.sha256(image.contents(path)).hexdigest() != digest]
    if sorted(path for _, path in entries) != sorted(f.path for f in FILES):
        bad.append(f"MANIFEST.sha256 does not list the {len(FILES)} files")
    return bad


def check_owners(image):
    bad = []
    for fixture in FILES:
        st = image.stat(fixture.path)
        if (st["uid"], st["gid"]) != (fixture.uid, fixture.uid):
            bad.append(f"/{fixture.path}: owner is not {fixture.uid}:{fixture.uid}")
    return bad


def check_hashes(image, ima):
    """security.ima: 0x04 0x04 and the SHA-256 of the contents, or of
    other contents (/hashed/tampered), or none."""
    def hash_ok(path):
        return image.xattr(path, "security.ima") == ima_hash_value(image.contents(path))

    bad = [f"/{p}: security.ima is not 0x0404 and the file's sha256"
           for p in HASH_MATCHES if not hash_ok(p)]
    if hash_ok("hashed/tampered"):
        bad.append("/hashed/tampered: security.ima matches its contents")
    if image.xattr("hashed/tampered", "security.ima") != ima["hashed/tampered"]:
        bad.append("/hashed/tampered: security.ima is not the hash made before the change")
    bad += [f"/{p}: has a security.ima" for p in NO_IMA if image.xattr(p, "security.ima")]
    return bad


def verifies(image, path, cert):
    """Whether evmctl ima_verify verifies the file's security.ima with cert."""
    f = image.dump(path)
    image.read(f"ea_get -f {f}.sig /{path} security.ima")
    r = subprocess.run(["evmctl", "ima_verify", "--key", cert, "--sigfile", f],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def check_signatures(image, out):
    cert1, cert2 = (os.path.join(out, f"cert{n}.der") for n in (1, 2))
    bad = []
    if not verifies(image, "signed/good", cert1):
        bad.append("/signed/good: evmctl ima_verify fails with key 1")
    if verifies(image, "signed/badsig", cert1):
        bad.append("/signed/badsig: evmctl ima_verify passes with key 1")
    if verifies(image, "signed/unknownkey", cert1):
        bad.append("/signed/unknownkey: evmctl ima_verify passes with key 1")
    if not verifies(image, "signed/unknownkey", cert2):
        bad.append("/signed/unknownkey: evmctl ima_verify fails with key 2")
    if not image.xattr("signed/good", "security.ima").startswith(IMA_SIG_V2_SHA256):
        bad.append("/signed/good: not a v2 sha256 signature")
    return bad


def evm_ok(image, key, path):
    """Whether security.evm is the HMAC of the image's values."""
    st = image.stat(path)
    data = evm_input(image.xattr(path, "security.ima"), image.xattr(path, "security.mlte"),
                     st["ino"], st["generation"], st["uid"], st["gid"], S_IFREG | st["mode"],
                     FS_UUID)
    return image.xattr(path, "security.evm") == evm_value(key, data)


def check_evm(image, out):
    """HMACs, recomputed from what the image holds; the broken ones."""
    with open(os.path.join(out, "evm.key"), "rb") as f:
        key = f.read()
    bad = [f"/{p}: security.evm is not the HMAC of its values"
           for p in WITH_EVM if p != "meta/forged" and not evm_ok(image, key, p)]
    if evm_ok(image, key, "meta/forged"):
        bad.append("/meta/forged: security.evm still matches")
    if image.xattr("meta/forged", "security.mlte") != MLTE_FORGED:
        bad.append(f"/meta/forged: security.mlte is not '{MLTE_FORGED.decode()}'")
    if image.xattr("meta/intact", "security.mlte") != MLTE_LABEL:
        bad.append(f"/meta/intact: security.mlte is not '{MLTE_LABEL.decode()}'")
    if image.xattr("meta/noevm", "security.evm"):
        bad.append("/meta/noevm: has a security.evm")
    if image.xattr("meta/badevm", "security.evm") != BAD_EVM:
        bad.append("/meta/badevm: security.evm is not the 5 bytes")
    return bad


def check_image(image, out, ima):
    bad = (check_manifest(image) + check_owners(image) + check_hashes(image, ima)
           + check_signatures(image, out) + check_evm(image, out))
    for b in bad:
        log(f"integrity fixtures: check failed: {b}")
    if bad:
        raise Fatal(f"integrity fixtures: {len(bad)} checks of {image.path} failed")


def e2fsck(img):
    """e2fsck -fn's exit status and output."""
    r = subprocess.run(["e2fsck", "-fn", img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return r.returncode, r.stdout


# ---- mlte's files (after the check: e2fsck would report the broken one). ----

def add_mlte_files(image):
    data = value_file(image.build, "mlte.data", MLTE_DATA)
    pad = value_file(image.build, "mlte.pad", MLTE_PAD)
    label = value_file(image.build, "mlte.label", MLTE_LABEL)
    commands = [
        f"mkdir /{MLTE_DIR}",
        f"write {data} /mlte/plain",
        f"write {data} /mlte/labelled",
        f"ea_set -f {label} /mlte/labelled security.mlte",
        f"write {data} /mlte/unreadable",
        f"ea_set -f {pad} /mlte/unreadable trusted.pad",
        f"ea_set -f {label} /mlte/unreadable security.mlte",
    ]
    commands += [f"set_inode_field /{p} {field} @{FIXED_TIME}"
                 for p in (MLTE_DIR,) + MLTE_FILES for field in ("ctime", "mtime", "atime")]
    image.write(commands)
    if image.xattr("mlte/labelled", "security.mlte") != MLTE_LABEL:
        raise Fatal(f"/mlte/labelled: security.mlte is not '{MLTE_LABEL.decode()}'")


def break_xattr_block(image):
    """Flips one byte of /mlte/unreadable's xattr block's h_checksum;
    e2fsck must then see that block's checksum fail."""
    acl = image.stat("mlte/unreadable")["acl"]
    if acl <= 0:
        raise Fatal("/mlte/unreadable has no xattr block")
    with open(image.path, "rb") as f:
        f.seek(acl * BLOCK_SIZE)
        block = f.read(BLOCK_SIZE)
    if MLTE_LABEL not in block:
        raise Fatal(f"security.mlte of /mlte/unreadable is not in its xattr block {acl}")
    flip_byte(image.path, checksum_offset(acl))
    _, report = e2fsck(image.path)
    if f"extended attribute block {acl} passes checks, but checksum does not match" not in report:
        raise Fatal(f"e2fsck does not see the broken xattr block {acl} of /mlte/unreadable")


def build_image(out, img):
    build = os.path.join(out, "build")
    shutil.rmtree(build, ignore_errors=True)
    tree = os.path.join(build, "tree")
    for d in ("tree", "x", "check"):
        os.makedirs(os.path.join(build, d))
    write_tree(tree, build_hello(build))
    ima = ima_values(out, tree)
    tamper(tree)
    finish_tree(tree)
    make_image(img, tree)
    image = Image(img, build)
    set_owners_and_values(image, ima)
    set_evm_and_times(image, out, tree, ima)
    check_image(image, out, ima)
    if e2fsck(img)[0] != 0:
        raise Fatal(f"e2fsck finds errors in {img}")
    add_mlte_files(image)
    break_xattr_block(image)


def fixtures(out):
    """Makes what OUTDIR lacks or what is out of date; the image's path."""
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    img = os.path.join(out, IMAGE)
    check_tools()
    for n in KEYS:
        make_key(out, n)
    make_evm_key(out)
    stamp = stamp_of(out)
    if up_to_date(out, stamp):
        return img
    log(f"integrity fixtures: building {img}")
    if os.path.exists(os.path.join(out, STAMP)):
        os.remove(os.path.join(out, STAMP))
    build_image(out, img)
    with open(os.path.join(out, STAMP), "w") as f:
        f.write(stamp + "\n")
    log(f"integrity fixtures: {img} built and checked")
    return img


def main(argv):
    if len(argv) != 2 or not argv[1]:
        log("error: usage: integrity-fixtures.py OUTDIR")
        return 1
    home = os.environ.get("HOME", "")
    os.environ["PATH"] = f"{home}/.cargo/bin:/usr/sbin:/sbin:" + os.environ.get("PATH", "")
    try:
        img = fixtures(argv[1])
    except (Fatal, OSError) as e:
        log(f"error: {e}")
        return 1
    print(img)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
