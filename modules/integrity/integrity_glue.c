// SPDX-License-Identifier: GPL-2.0
/*
 * C glue of the integrity submodule (hooks.rs, crypto.rs): the parts of the
 * kernel's crypto library and key API that are static inline, take flag
 * arguments bindgen cannot spell, or return key references.
 *
 * - hashing a file: a read loop of __kernel_read() into SHA-256 (the
 *   library in lib/crypto), as IMA's ima_calc_file_hash does;
 * - SHA-1 and HMAC-SHA256 contexts for Rust, which holds them on its stack;
 * - the keyring of IMA signature keys: X.509 certificates added as
 *   "asymmetric" keys, looked up by the v2 signature's key id, verified
 *   with verify_signature() (crypto/asymmetric_keys), as IMA does in
 *   security/integrity/digsig_asymmetric.c;
 * - a sleeping lock on one bit of a word in the inode blob.
 */

#include <crypto/public_key.h>
#include <crypto/sha1.h>
#include <crypto/sha2.h>
#include <keys/asymmetric-type.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/key.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "integrity_glue.h"

/* The read size of file hashing. */
#define STACKER_HASH_CHUNK (64 * 1024)

/*
 * Hashes @file's contents from offset 0 into @out (SHA-256). @file must be
 * open for reading. Sleeps. 0, or a negative errno: -ENOMEM, a read error,
 * -EINTR on a fatal signal.
 */
int stacker_integrity_hash_file(struct file *file, u8 *out)
{
	struct sha256_ctx ctx;
	loff_t pos = 0;
	ssize_t n;
	u8 *buf;

	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	buf = kvmalloc(STACKER_HASH_CHUNK, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	sha256_init(&ctx);
	for (;;) {
		if (fatal_signal_pending(current)) {
			n = -EINTR;
			break;
		}
		n = __kernel_read(file, buf, STACKER_HASH_CHUNK, &pos);
		if (n <= 0)
			break;
		sha256_update(&ctx, buf, n);
	}
	kvfree(buf);
	if (n < 0) {
		memzero_explicit(&ctx, sizeof(ctx));
		return n;
	}
	sha256_final(&ctx, out);
	return 0;
}

/* SHA-256 of a buffer (kernel_post_read_file). */
void stacker_integrity_sha256(const u8 *data, size_t len, u8 *out)
{
	sha256(data, len, out);
}

/* SHA-1 in pieces, for the template hash and the aggregate. */
size_t stacker_integrity_sha1_ctx_size(void)
{
	return sizeof(struct sha1_ctx);
}

void stacker_integrity_sha1_init(void *ctx)
{
	sha1_init(ctx);
}

void stacker_integrity_sha1_update(void *ctx, const u8 *data, size_t len)
{
	sha1_update(ctx, data, len);
}

void stacker_integrity_sha1_final(void *ctx, u8 *out)
{
	sha1_final(ctx, out);
}

/* HMAC-SHA256 in pieces, for security.evm. */
size_t stacker_integrity_hmac_ctx_size(void)
{
	return sizeof(struct hmac_sha256_ctx);
}

void stacker_integrity_hmac_init(void *ctx, const u8 *key, size_t key_len)
{
	hmac_sha256_init_usingrawkey(ctx, key, key_len);
}

void stacker_integrity_hmac_update(void *ctx, const u8 *data, size_t len)
{
	hmac_sha256_update(ctx, data, len);
}

void stacker_integrity_hmac_final(void *ctx, u8 *out)
{
	hmac_sha256_final(ctx, out);
}

/* The keyring of signature keys, made at the first key; under keys_lock. */
static struct key *stacker_integrity_keyring;
static DEFINE_MUTEX(stacker_integrity_keys_lock);

/*
 * Adds the X.509 certificate @der to the keyring. 0, or a negative errno
 * (-EBADMSG, -EINVAL, -ENOPKG for a certificate the parser refuses,
 * -EEXIST when it is already there, -ENOMEM). Sleeps.
 */
int stacker_integrity_add_key(const void *der, size_t len)
{
	key_ref_t kref;
	int ret = 0;

	mutex_lock(&stacker_integrity_keys_lock);
	if (!stacker_integrity_keyring) {
		struct key *ring = keyring_alloc(".stacker_integrity",
				GLOBAL_ROOT_UID, GLOBAL_ROOT_GID, current_cred(),
				(KEY_POS_ALL & ~KEY_POS_SETATTR) | KEY_USR_VIEW |
				KEY_USR_READ | KEY_USR_SEARCH,
				KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
		if (IS_ERR(ring)) {
			ret = PTR_ERR(ring);
			goto out;
		}
		stacker_integrity_keyring = ring;
	}
	kref = key_create(make_key_ref(stacker_integrity_keyring, 1),
			  "asymmetric", NULL, der, len,
			  (KEY_POS_ALL & ~KEY_POS_SETATTR) | KEY_USR_VIEW | KEY_USR_READ,
			  KEY_ALLOC_NOT_IN_QUOTA | KEY_ALLOC_BYPASS_RESTRICTION);
	if (IS_ERR(kref))
		ret = PTR_ERR(kref);
	else
		key_ref_put(kref);
out:
	mutex_unlock(&stacker_integrity_keys_lock);
	return ret;
}

/*
 * Verifies @sig (@sig_len bytes, PKCS#1 v1.5 or X9.62 by the key's
 * algorithm) of the SHA-256 @digest with the key whose id ends in @keyid.
 * 0 when it is valid; -ENOKEY when there is no such key; -EKEYREJECTED or
 * -EBADMSG when the signature is wrong; -EINVAL when it is malformed for
 * the key, or (twice in a row) memory ran out in the RSA code; -ENOMEM
 * when memory ran out elsewhere (the search or the check could not
 * allocate: nothing is known of the key or the signature). Sleeps.
 */
int stacker_integrity_verify(u32 keyid, const u8 *sig, u32 sig_len,
			     const u8 *digest)
{
	struct public_key_signature pks = {};
	const struct public_key *pk;
	struct key *ring, *key;
	key_ref_t kref;
	char name[12];
	int ret;

	mutex_lock(&stacker_integrity_keys_lock);
	ring = stacker_integrity_keyring ? key_get(stacker_integrity_keyring) : NULL;
	mutex_unlock(&stacker_integrity_keys_lock);
	if (!ring)
		return -ENOKEY;
	snprintf(name, sizeof(name), "id:%08x", keyid);
	kref = keyring_search(make_key_ref(ring, 1), &key_type_asymmetric, name, true);
	key_put(ring);
	if (IS_ERR(kref)) {
		/*
		 * -EAGAIN is "not found"; a key that is revoked or expired is
		 * no key either. But the search allocates (the matcher's key
		 * id): its -ENOMEM says nothing of the keys.
		 */
		return PTR_ERR(kref) == -ENOMEM ? -ENOMEM : -ENOKEY;
	}
	key = key_ref_to_ptr(kref);
	pk = asymmetric_key_public_key(key);
	if (!pk) {
		ret = -ENOKEY;
		goto out;
	}
	if (!strcmp(pk->pkey_algo, "rsa")) {
		pks.encoding = "pkcs1";
	} else if (!strncmp(pk->pkey_algo, "ecdsa-", 6)) {
		pks.encoding = "x962";
	} else {
		ret = -ENOPKG;
		goto out;
	}
	pks.pkey_algo = pk->pkey_algo;
	pks.hash_algo = "sha256";
	pks.m = (u8 *)digest;
	pks.m_size = SHA256_DIGEST_SIZE;
	pks.s = (u8 *)sig;
	pks.s_size = sig_len;
	ret = verify_signature(key, &pks);
	/*
	 * The RSA code reports an allocation failure of its payload check as
	 * -EINVAL (crypto/rsa.c: _rsa_enc() returns -EINVAL for any error of
	 * rsa_check_payload()), as it does a signature out of range for the
	 * key. Check once more before taking it for the signature's fault.
	 */
	if (ret == -EINVAL)
		ret = verify_signature(key, &pks);
out:
	key_put(key);
	return ret;
}

/*
 * A sleeping lock on bit 0 of *@word (zero: unlocked), as the inode's
 * measurement lock. 0, or -EINTR on a fatal signal.
 */
int stacker_integrity_lock(unsigned long *word)
{
	return wait_on_bit_lock(word, 0, TASK_KILLABLE);
}

void stacker_integrity_unlock(unsigned long *word)
{
	clear_and_wake_up_bit(0, word);
}

/* The lock of the measurement list's tail and aggregate (measurements.rs). */
static DEFINE_MUTEX(stacker_integrity_list_mutex);

void stacker_integrity_list_lock(void)
{
	mutex_lock(&stacker_integrity_list_mutex);
}

void stacker_integrity_list_unlock(void)
{
	mutex_unlock(&stacker_integrity_list_mutex);
}
