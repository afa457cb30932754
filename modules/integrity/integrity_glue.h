/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The integrity submodule's C glue (integrity_glue.c), called from Rust
 * (crypto.rs, measurements.rs, which declare the same functions).
 */
#ifndef _SECURITY_STACKER_INTEGRITY_GLUE_H
#define _SECURITY_STACKER_INTEGRITY_GLUE_H

#include <linux/types.h>

struct file;

int stacker_integrity_hash_file(struct file *file, u8 *out);
void stacker_integrity_sha256(const u8 *data, size_t len, u8 *out);
size_t stacker_integrity_sha1_ctx_size(void);
void stacker_integrity_sha1_init(void *ctx);
void stacker_integrity_sha1_update(void *ctx, const u8 *data, size_t len);
void stacker_integrity_sha1_final(void *ctx, u8 *out);
size_t stacker_integrity_hmac_ctx_size(void);
void stacker_integrity_hmac_init(void *ctx, const u8 *key, size_t key_len);
void stacker_integrity_hmac_update(void *ctx, const u8 *data, size_t len);
void stacker_integrity_hmac_final(void *ctx, u8 *out);
int stacker_integrity_add_key(const void *der, size_t len);
int stacker_integrity_verify(u32 keyid, const u8 *sig, u32 sig_len,
			     const u8 *digest);
int stacker_integrity_lock(unsigned long *word);
void stacker_integrity_unlock(unsigned long *word);
void stacker_integrity_list_lock(void);
void stacker_integrity_list_unlock(void);

#endif /* _SECURITY_STACKER_INTEGRITY_GLUE_H */
