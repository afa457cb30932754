# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the pure parts of scripts/integrity-fixtures.py: the bytes
EVM's HMAC covers and the HMAC (against a value of the repository's own
integrity-hmac), the reading of real `debugfs -R "stat /PATH"` output,
MANIFEST.sha256 and the byte of an xattr block's checksum that is broken."""
import hashlib
import importlib.util
import os
import struct
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "integrity-fixtures.py")
spec = importlib.util.spec_from_file_location("integrity_fixtures", SCRIPT)
fx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fx)

FS_UUID = "5eed1e24-0000-4000-8000-1a7e91e7c0de"
KEY = bytes(range(32))
IMA = b"\x04\x04" + hashlib.sha256(b"x").digest()
MLTE = b"system_u:object_r:secret_t:s0"
INO, GENERATION, UID, GID, MODE = 27, 0x12345678, 1001, 1002, 0o100755
# What stacker's integrity-hmac (the kernel's layout code, built for the
# host) prints for the values above:
#   integrity-hmac --key KEY --uuid FS_UUID --ino 27 --generation 305419896
#       --uid 1001 --gid 1002 --mode 100755
#       --xattr security.ima=IMA --xattr security.mlte=MLTE
RUST_EVM = "02d6e197cc0d3bb9b0da08fc16c111f2cd1c946f6dbc7366389b533578acafae3b"

# Real output of debugfs 1.47.0 `-R "stat /signed/good"` and
# `-R "stat /mlte/unreadable"` on a fixture image, and of /signed/good after
# set_inode_field generation 305419896, mode 0104755, uid 65534, gid 4242.
STAT_GOOD = (
    "Inode: 27   Type: regular    Mode:  0755   Flags: 0x80000\n"
    "Generation: 0    Version: 0x00000000:00000000\n"
    "User:  1001   Group:  1001   Project:     0   Size: 8662\n"
    "File ACL: 46\n"
    "Links: 1   Blockcount: 32\n"
    "Fragment:  Address: 0    Number: 0    Size: 0\n"
    " ctime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    " atime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    " mtime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    "crtime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    "Size of extra inode fields: 32\n"
    "Extended attributes:\n"
    "  security.evm (33) = 02 1e db d5 63 87 a8 0f 73 30 c5 19 0e a1 b0 0d 2c dc 4f ec"
    " 0f d7 9b f7 f5 ca 69 72 54 40 95 37 3c \n"
    "  security.ima (265)\n"
    "Inode checksum: 0x7bbb13f3\n"
    "EXTENTS:\n"
    "(0):33, (1-2):38-39\n")
STAT_UNREADABLE = (
    "Inode: 33   Type: regular    Mode:  0644   Flags: 0x80000\n"
    "Generation: 0    Version: 0x00000000:00000000\n"
    "User:     0   Group:     0   Project:     0   Size: 13\n"
    "File ACL: 59\n"
    "Links: 1   Blockcount: 16\n"
    "Fragment:  Address: 0    Number: 0    Size: 0\n"
    " ctime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    " atime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    " mtime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    "crtime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    "Size of extra inode fields: 32\n"
    "Inode checksum: 0x68bb854f\n"
    "EXTENTS:\n"
    "(0):58\n")
STAT_CHANGED = (
    "Inode: 27   Type: regular    Mode:  04755   Flags: 0x80000\n"
    "Generation: 305419896    Version: 0x00000000:00000000\n"
    "User: 65534   Group:  4242   Project:     0   Size: 8662\n"
    "File ACL: 46\n"
    "Links: 1   Blockcount: 32\n"
    "Fragment:  Address: 0    Number: 0    Size: 0\n"
    " ctime: 0x6553f100:00000000 -- Tue Nov 14 22:13:20 2023\n"
    "Size of extra inode fields: 32\n"
    "Inode checksum: 0x4ef28ecf\n")

# The first lines of a fixture image's MANIFEST.sha256.
MANIFEST = (
    "4bb4233119e32e0ef20797dac1c218c8a49b14e1e25cfc3cb419a560de2e1eb4  /mnt/integrity/data/m1\n"
    "534d57f5d5cb0c76a0339c6e42cacd561e511fba254aeda85e2eff60fd3627d6  /mnt/integrity/data/m2\n"
    "f446e3c1a9872e9c6b5f5a1237652ccbc80315760917dd1585492c50c036dd96"
    "  /mnt/integrity/hashed/nohash\n")


class Evm(unittest.TestCase):
    def test_input_is_ima_mlte_h_misc_and_uuid(self):
        # struct h_misc of a 64-bit kernel, little-endian, field by field:
        # unsigned long ino, u32 generation, uid, gid, umode_t mode, and
        # padding to 8 bytes; then s_uuid's 16 bytes as written.
        h_misc = (INO.to_bytes(8, "little") + GENERATION.to_bytes(4, "little")
                  + UID.to_bytes(4, "little") + GID.to_bytes(4, "little")
                  + MODE.to_bytes(2, "little") + bytes(2))
        self.assertEqual(24, len(h_misc))
        uuid_bytes = bytes.fromhex(FS_UUID.replace("-", ""))
        self.assertEqual(IMA + MLTE + h_misc + uuid_bytes,
                         fx.evm_input(IMA, MLTE, INO, GENERATION, UID, GID, MODE, FS_UUID))

    def test_value_is_integrity_hmacs(self):
        data = fx.evm_input(IMA, MLTE, INO, GENERATION, UID, GID, MODE, FS_UUID)
        self.assertEqual(RUST_EVM, fx.evm_value(KEY, data).hex())

    def test_missing_xattr_feeds_nothing(self):
        with_mlte = fx.evm_input(b"", MLTE, INO, GENERATION, UID, GID, MODE, FS_UUID)
        self.assertEqual(MLTE, with_mlte[:len(MLTE)])
        self.assertEqual(24 + 16, len(fx.evm_input(b"", b"", INO, 0, 0, 0, MODE, FS_UUID)))

    def test_ima_hash_value(self):
        self.assertEqual(IMA, fx.ima_hash_value(b"x"))


class Stat(unittest.TestCase):
    def test_signed_good(self):
        self.assertEqual({"ino": 27, "generation": 0, "uid": 1001, "gid": 1001, "mode": 0o755,
                          "acl": 46}, fx.parse_stat(STAT_GOOD))

    def test_xattr_block_of_unreadable(self):
        self.assertEqual({"ino": 33, "generation": 0, "uid": 0, "gid": 0, "mode": 0o644,
                          "acl": 59}, fx.parse_stat(STAT_UNREADABLE))

    def test_generation_setuid_mode_and_owner(self):
        self.assertEqual({"ino": 27, "generation": 305419896, "uid": 65534, "gid": 4242,
                          "mode": 0o4755, "acl": 46}, fx.parse_stat(STAT_CHANGED))

    def test_no_file_acl_is_zero(self):
        text = STAT_GOOD.replace("File ACL: 46\n", "")
        self.assertEqual(0, fx.parse_stat(text)["acl"])

    def test_no_inode_is_an_error(self):
        # What debugfs prints on stdout for a path that does not exist.
        with self.assertRaises(ValueError):
            fx.parse_stat("")


class Manifest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(
            [("4bb4233119e32e0ef20797dac1c218c8a49b14e1e25cfc3cb419a560de2e1eb4", "data/m1"),
             ("534d57f5d5cb0c76a0339c6e42cacd561e511fba254aeda85e2eff60fd3627d6", "data/m2"),
             ("f446e3c1a9872e9c6b5f5a1237652ccbc80315760917dd1585492c50c036dd96",
              "hashed/nohash")],
            fx.parse_manifest(MANIFEST))

    def test_line_outside_the_mount_is_an_error(self):
        with self.assertRaises(ValueError):
            fx.parse_manifest("4bb4  /data/m1\n")

    def test_written_as_sha256sum_in_byte_order(self):
        files = {"b/z": b"z\n", "a/y": b"y\n", "B": b""}
        with tempfile.TemporaryDirectory(prefix="fixtures-test-") as tree:
            for path, contents in files.items():
                os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
                with open(os.path.join(tree, path), "wb") as f:
                    f.write(contents)
            text = fx.manifest_lines(tree, list(files))
        sha = {path: hashlib.sha256(contents).hexdigest() for path, contents in files.items()}
        self.assertEqual(f"{sha['B']}  /mnt/integrity/B\n"
                         f"{sha['a/y']}  /mnt/integrity/a/y\n"
                         f"{sha['b/z']}  /mnt/integrity/b/z\n", text)
        self.assertEqual(["B", "a/y", "b/z"], [p for _, p in fx.parse_manifest(text)])


class XattrBlockChecksum(unittest.TestCase):
    # struct ext4_xattr_header: h_magic, h_refcount, h_blocks, h_hash,
    # h_checksum, h_reserved[3], all __le32.
    HEADER = struct.Struct("<8I")

    def test_offset_is_h_checksum(self):
        self.assertEqual(59 * 4096 + 16, fx.checksum_offset(59))

    def test_flip_changes_the_checksums_first_byte_only(self):
        block = 2
        header = (0xEA020000, 1, 1, 0x1234ABCD, 0x89ABCDEF, 0, 0, 0)
        image = bytearray(4 * 4096)
        image[block * 4096:block * 4096 + self.HEADER.size] = self.HEADER.pack(*header)
        with tempfile.NamedTemporaryFile(prefix="fixtures-test-") as f:
            f.write(image)
            f.flush()
            fx.flip_byte(f.name, fx.checksum_offset(block))
            f.seek(0)
            flipped = f.read()
        self.assertEqual(len(image), len(flipped))
        changed = self.HEADER.unpack_from(flipped, block * 4096)
        self.assertEqual(header[:4] + (0x89ABCDEF ^ 0xFF,) + header[5:], changed)
        self.assertEqual([block * 4096 + 16],
                         [i for i in range(len(image)) if image[i] != flipped[i]])


if __name__ == "__main__":
    unittest.main()
