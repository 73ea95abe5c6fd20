// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_sha256.c - SHA-256 (sim/sha256.h) against the examples of
 * FIPS 180-2 appendix B ("abc", the 448-bit two-block message, a million
 * 'a') and the well-known digest of the empty message, whole and fed in
 * pieces that straddle the 64-byte blocks.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sha256.h"
#include "sim/util.h"

static const struct {
	const char *msg;
	const char *want;
} vectors[] = {
	{ "", "sha256:e3b0c44298fc1c149afbf4c8996fb924"
	      "27ae41e4649b934ca495991b7852b855" },
	/* FIPS 180-2 B.1: one block */
	{ "abc", "sha256:ba7816bf8f01cfea414140de5dae2223"
		 "b00361a396177a9cb410ff61f20015ad" },
	/* B.2: 56 bytes, so the length goes in a second block */
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "sha256:248d6a61d20638b8e5c026930c3e6039"
	  "a33ce45964ff2167f6ecedd419db06c1" },
};

START_TEST(sim_sha256_text_fips)
{
	char out[SIM_SHA256_TEXT_LEN];

	sim_sha256_text(vectors[_i].msg, strlen(vectors[_i].msg), out);
	ck_assert_str_eq(out, vectors[_i].want);
}
END_TEST

/* B.2's message one byte at a time, then in pieces of 5: the same digest. */
START_TEST(sim_sha256_update_pieces)
{
	const char *m = vectors[2].msg;
	char out[SIM_SHA256_TEXT_LEN];
	struct sim_sha256 c;
	size_t i, n = strlen(m);

	sim_sha256_init(&c);
	for (i = 0; i < n; i++)
		sim_sha256_update(&c, m + i, 1);
	sim_sha256_final(&c, out);
	ck_assert_str_eq(out, vectors[2].want);
	sim_sha256_init(&c);
	for (i = 0; i < n; i += 5)
		sim_sha256_update(&c, m + i, n - i < 5 ? n - i : 5);
	sim_sha256_final(&c, out);
	ck_assert_str_eq(out, vectors[2].want);
}
END_TEST

/* B.3: a million 'a', fed 1000 at a time (15,625 whole blocks). */
START_TEST(sim_sha256_million_a)
{
	char out[SIM_SHA256_TEXT_LEN], a[1000];
	struct sim_sha256 c;
	int i;

	memset(a, 'a', sizeof(a));
	sim_sha256_init(&c);
	for (i = 0; i < 1000; i++)
		sim_sha256_update(&c, a, sizeof(a));
	sim_sha256_final(&c, out);
	ck_assert_str_eq(out, "sha256:cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static Suite *sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("digest");

	tcase_add_loop_test(tc, sim_sha256_text_fips, 0, ARRAY_SIZE(vectors));
	tcase_add_test(tc, sim_sha256_update_pieces);
	tcase_add_test(tc, sim_sha256_million_a);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sha256_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
