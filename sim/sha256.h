/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim/sha256.h - SHA-256 (FIPS 180-4), the content digest that results
 * carry as their provenance: the scenario's and the machine profiles'
 * bytes, written "sha256:" and 64 lower-case hex digits.
 *
 * Theory of operation: a streaming context (init, update any number of
 * times, final), as every SHA library has it, and one call for a buffer.
 * A digest tells an edited file from the one a result came from; it is
 * no signature.
 *
 * Layering: sim/ primitive; uses nothing else.
 */
#ifndef SIM_SHA256_H
#define SIM_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* "sha256:" + 64 hex digits + NUL */
#define SIM_SHA256_TEXT_LEN 72

struct sim_sha256 {
	uint32_t h[8]; /* the chaining state */
	uint64_t len; /* bytes hashed so far */
	unsigned char buf[64]; /* a partial block */
	size_t fill; /* bytes in @buf */
};

void sim_sha256_init(struct sim_sha256 *c);
void sim_sha256_update(struct sim_sha256 *c, const void *data, size_t len);
/* The digest as "sha256:HEX" in @out; @c must be initialised again after. */
void sim_sha256_final(struct sim_sha256 *c, char out[SIM_SHA256_TEXT_LEN]);
/* The digest of @len bytes at @data, as sim_sha256_final() writes it. */
void sim_sha256_text(const void *data, size_t len,
		     char out[SIM_SHA256_TEXT_LEN]);

#endif /* SIM_SHA256_H */
