// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/check_pahole.c - the pahole text parser: real pahole output of
 * struct page_counter in its v6.0 and v6.1 shapes gives every member's
 * offset and the struct size; declarators, nesting and bitfields give the
 * right names; bad text fails with the exact message, line and column.
 *
 * The fixtures in tests/data/pahole/ are real pahole 1.24 output (see the
 * README there) and are found under $top_srcdir (set by the Makefile; "."
 * when run by hand from the source tree). The expected offsets below are
 * NOT read off the fixtures: each is worked out from the C layout rules for
 * x86_64 (unsigned long, atomic_long_t and pointers are 8 bytes, aligned to
 * 8), as the comment above each table says.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/pahole.h"
#include "sim/util.h"

/* About 20 KiB: static, not on the stack. Each test runs in its own fork. */
static struct pahole_struct ps;

struct expect {
	const char *name;
	unsigned int offset, size;
};

static void fixture_path(char *path, size_t len, const char *name)
{
	const char *top = getenv("top_srcdir");

	snprintf(path, len, "%s/tests/data/pahole/%s",
		 top && top[0] ? top : ".", name);
}

static void load_fixture(const char *name, const char *want)
{
	struct sim_error err;
	char path[512];

	fixture_path(path, sizeof(path), name);
	ck_assert_msg(pahole_load(path, want, &ps, &err) == 0,
		      "%s: %s:%u:%u: %s", path, err.file, err.line, err.col,
		      err.msg);
}

/* Every member, in order, and nothing else. */
static void check_fields(const struct expect *e, unsigned int n)
{
	unsigned int i;

	ck_assert_uint_eq(ps.nr_fields, n);
	for (i = 0; i < n; i++) {
		const struct pahole_field *f = &ps.fields[i];

		ck_assert_msg(!strcmp(f->name, e[i].name) &&
				      f->offset == e[i].offset &&
				      f->size == e[i].size,
			      "field %u: '%s' %u %u, expected '%s' %u %u", i,
			      f->name, f->offset, f->size, e[i].name,
			      e[i].offset, e[i].size);
		ck_assert_ptr_eq(pahole_field(&ps, e[i].name), f);
	}
}

/*
 * v6.0: fourteen 8-byte members, no alignment above 8, so each follows the
 * last: member k is at 8 * k and the size is 14 * 8 = 112.
 *
 *	0 usage  8 min  16 low  24 high  32 max  40 emin  48 min_usage
 *	56 children_min_usage | 64 elow ... 104 parent | 112
 */
static const struct expect v60[] = {
	{ "usage", 0, 8 },
	{ "min", 8, 8 },
	{ "low", 16, 8 },
	{ "high", 24, 8 },
	{ "max", 32, 8 },
	{ "emin", 40, 8 },
	{ "min_usage", 48, 8 },
	{ "children_min_usage", 56, 8 },
	{ "elow", 64, 8 },
	{ "low_usage", 72, 8 },
	{ "children_low_usage", 80, 8 },
	{ "watermark", 88, 8 },
	{ "failcnt", 96, 8 },
	{ "parent", 104, 8 },
};

/*
 * v6.1: _pad1_ is a zero-size struct aligned to 64, so it sits at the next
 * multiple of 64 after usage (64) and emin shares its offset; the eight
 * members from emin end at 64 + 8 * 8 = 128, a multiple of 64, where
 * _pad2_ and min sit; parent follows max at 160. The struct inherits the
 * 64-byte alignment, so its size 168 rounds up to 192.
 *
 *	0 usage | hole | 64 _pad1_ emin ... 120 failcnt | 128 _pad2_ min
 *	136 low 144 high 152 max 160 parent | 168 padding | 192
 */
static const struct expect v61[] = {
	{ "usage", 0, 8 },
	{ "_pad1_", 64, 0 },
	{ "emin", 64, 8 },
	{ "min_usage", 72, 8 },
	{ "children_min_usage", 80, 8 },
	{ "elow", 88, 8 },
	{ "low_usage", 96, 8 },
	{ "children_low_usage", 104, 8 },
	{ "watermark", 112, 8 },
	{ "failcnt", 120, 8 },
	{ "_pad2_", 128, 0 },
	{ "min", 128, 8 },
	{ "low", 136, 8 },
	{ "high", 144, 8 },
	{ "max", 152, 8 },
	{ "parent", 160, 8 },
};

/*
 * pahole -C page_counter on the v6.0 shape. Expect every offset of the
 * table above and size 112.
 */
START_TEST(pahole_load_page_counter_v6_0)
{
	load_fixture("page_counter-v6.0.txt", NULL);
	ck_assert_str_eq(ps.name, "page_counter");
	ck_assert_uint_eq(ps.size, 112);
	check_fields(v60, ARRAY_SIZE(v60));
	/* 1 header, 2-9 eight members, 10 a cacheline comment, 11 elow */
	ck_assert_uint_eq(pahole_field(&ps, "parent")->line, 16);
}
END_TEST

/*
 * pahole -E (expand types) prints each atomic_long_t as a nested struct:
 *
 *	/ * typedef atomic_long_t * / struct {
 *		long int counter;	/ * 0 8 * /
 *	} usage; / * 0 8 * /
 *
 * Expect the same fourteen members as without -E, and no "counter".
 */
START_TEST(pahole_load_page_counter_v6_0_expanded)
{
	load_fixture("page_counter-v6.0-expand.txt", NULL);
	ck_assert_uint_eq(ps.size, 112);
	check_fields(v60, ARRAY_SIZE(v60));
	ck_assert_ptr_null(pahole_field(&ps, "counter"));
}
END_TEST

/*
 * pahole -C page_counter on the v6.1 shape (decimal and --hex). Expect
 * the table above, the zero-size padding markers kept, and size 192.
 */
START_TEST(pahole_load_page_counter_v6_1)
{
	static const char *const files[] = {
		"page_counter-v6.1.txt",
		"page_counter-v6.1-hex.txt",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		load_fixture(files[i], NULL);
		ck_assert_str_eq(ps.name, "page_counter");
		ck_assert_uint_eq(ps.size, 192);
		check_fields(v61, ARRAY_SIZE(v61));
	}
}
END_TEST

/*
 * A page_counter with only usage, max, watermark, failcnt and parent:
 * five 8-byte members one after the other, size 40. Expect the missing
 * ones to be NULL, not an error.
 */
START_TEST(pahole_load_page_counter_partial)
{
	static const struct expect e[] = {
		{ "usage", 0, 8 },	{ "max", 8, 8 },
		{ "watermark", 16, 8 }, { "failcnt", 24, 8 },
		{ "parent", 32, 8 },
	};

	load_fixture("page_counter-partial.txt", NULL);
	ck_assert_uint_eq(ps.size, 40);
	check_fields(e, ARRAY_SIZE(e));
	ck_assert_ptr_null(pahole_field(&ps, "min"));
	ck_assert_ptr_null(pahole_field(&ps, "emin"));
	ck_assert_ptr_null(pahole_field(&ps, ""));
}
END_TEST

/*
 * struct sim_exotic (source in tests/data/pahole/README), with each
 * member's (offset, size) by the x86_64 rules:
 *
 *	int id;				(0, 4), then a 4-byte hole to align x
 *	unsigned long x[4];		(8, 32)
 *	union { ... } u;		(40, 8), named: one member
 *	struct { short a, b; int c; } inner;	(48, 8), named: one member
 *	union {				anonymous, at 56: its members are
 *		long w1;		members of sim_exotic, and so are
 *		struct { int h1, h2; };	those of the anonymous struct in it:
 *	};				w1 (56, 8), h1 (56, 4), h2 (60, 4)
 *	unsigned int flags:3, kind:5, big:20;
 *					28 bits of one unsigned int at 64:
 *					each is (64, 4); a 4-bit hole
 *	char tag;			(68, 1), then a 3-byte hole
 *	void (*fn)(int);		(72, 8)
 *	const char *const names[2];	(80, 16)
 *	struct sim_exotic *next;	(96, 8)
 *	unsigned char tail[0];		(104, 0); size 104, a multiple of 8
 *
 * Expect exactly these fifteen, and none of a, b, c, word, ptr.
 */
START_TEST(pahole_load_exotic)
{
	static const struct expect e[] = {
		{ "id", 0, 4 },	     { "x", 8, 32 },	 { "u", 40, 8 },
		{ "inner", 48, 8 },  { "w1", 56, 8 },	 { "h1", 56, 4 },
		{ "h2", 60, 4 },     { "flags", 64, 4 }, { "kind", 64, 4 },
		{ "big", 64, 4 },    { "tag", 68, 1 },	 { "fn", 72, 8 },
		{ "names", 80, 16 }, { "next", 96, 8 },	 { "tail", 104, 0 },
	};
	static const char *const inner[] = { "a", "b", "c", "word", "ptr" };
	unsigned int i;

	load_fixture("sim_exotic.txt", NULL);
	ck_assert_str_eq(ps.name, "sim_exotic");
	ck_assert_uint_eq(ps.size, 104);
	check_fields(e, ARRAY_SIZE(e));
	for (i = 0; i < ARRAY_SIZE(inner); i++)
		ck_assert_ptr_null(pahole_field(&ps, inner[i]));
}
END_TEST

/*
 * pahole -C pc_padding,page_counter prints two structs back to back:
 *
 *	1  struct pc_padding {		(one member x[0], size 0)
 *	5  } __attribute__((__aligned__(64)));
 *	6  struct page_counter {	(the v6.1 shape)
 *	7  	atomic_long_t usage; ...
 *
 * Expect @want NULL to give the first, "page_counter" the second, and a
 * name that is not there to list both.
 */
START_TEST(pahole_load_want)
{
	struct sim_error err;
	char path[512];

	load_fixture("pc_padding-page_counter-v6.1.txt", NULL);
	ck_assert_str_eq(ps.name, "pc_padding");
	ck_assert_uint_eq(ps.size, 0);
	ck_assert_uint_eq(ps.nr_fields, 1);
	ck_assert_str_eq(ps.fields[0].name, "x");

	load_fixture("pc_padding-page_counter-v6.1.txt", "page_counter");
	ck_assert_str_eq(ps.name, "page_counter");
	ck_assert_uint_eq(ps.size, 192);
	check_fields(v61, ARRAY_SIZE(v61));
	ck_assert_uint_eq(pahole_field(&ps, "usage")->line, 7);

	fixture_path(path, sizeof(path), "pc_padding-page_counter-v6.1.txt");
	ck_assert_int_eq(pahole_load(path, "mem_cgroup", &ps, &err), -1);
	ck_assert_str_eq(err.msg, "no struct 'mem_cgroup' in the text; found: "
				  "pc_padding, page_counter");
	ck_assert_str_eq(err.file, path);
	ck_assert_uint_eq(err.line, 1);
	ck_assert_uint_eq(err.col, 1);
	ck_assert_uint_eq(ps.nr_fields, 0);
}
END_TEST

/*
 * Declarators, one member each, in a struct of size 64:
 *
 *	struct s {
 *		<decl>;	/ * 0 8 * /
 *		/ * size: 64 * /
 *	};
 *
 * Expect the identifier alone.
 */
static const struct {
	const char *decl;
	const char *name;
} decls[] = {
	{ "long unsigned int          x[4]", "x" },
	{ "char                       m[2][3]", "m" },
	{ "unsigned int               flags:3", "flags" },
	{ "void                       (*fn)(int)", "fn" },
	{ "void                       (*fns[2])(int, long)", "fns" },
	{ "int                        (*(*get)(void))[3]", "get" },
	{ "void                       (* const cb)(void)", "cb" },
	{ "struct pc_padding          _pad1_ __attribute__((__aligned__(64)))",
	  "_pad1_" },
	{ "const const const char  *  names[2]", "names" },
	{ "unsigned char              tail[]", "tail" },
	{ "struct page_counter *      parent", "parent" },
};

START_TEST(pahole_parse_declarator)
{
	struct sim_error err;
	char text[512];

	snprintf(text, sizeof(text),
		 "struct s {\n\t%s;\t/*     0     8 */\n"
		 "\t/* size: 64, cachelines: 1, members: 1 */\n};\n",
		 decls[_i].decl);
	ck_assert_msg(pahole_parse(text, "t.txt", NULL, &ps, &err) == 0,
		      "%s: %u:%u: %s", decls[_i].decl, err.line, err.col,
		      err.msg);
	ck_assert_uint_eq(ps.nr_fields, 1);
	ck_assert_str_eq(ps.fields[0].name, decls[_i].name);
	ck_assert_uint_eq(ps.fields[0].line, 2);
}
END_TEST

/*
 * Rejections, one fault each, with the exact message and its one-based
 * line:column (a tab is one column). Members are written
 *
 *	\tlong a;\t/ *     0     8 * /
 *
 * with the name at column 7 (after a tab and "long "), a tab at 9, the
 * comment at 10 and the offset at 17.
 */
#define HEAD "struct s {\n"
#define A0 "\tlong a;\t/*     0     8 */\n"
#define B8 "\tlong b;\t/*     8     8 */\n"
#define SIZE16 "\n\t/* size: 16, cachelines: 1, members: 2 */\n"

static const struct {
	const char *text;
	const char *want;
	unsigned int line, col;
	const char *msg;
} bad[] = {
	{ "", NULL, 1, 1,
	  "no struct found: expected 'struct NAME {' as printed by pahole -C" },
	{ "\n\t/* only a comment */\n\n", NULL, 1, 1,
	  "no struct found: expected 'struct NAME {' as printed by pahole -C" },
	{ "\nname: page_counter\n", NULL, 2, 1,
	  "expected 'struct NAME {' as printed by pahole -C, found "
	  "'name: page_counter'" },
	{ "  struct {\n};\n", NULL, 1, 3,
	  "expected 'struct NAME {' as printed by pahole -C, found "
	  "'struct {'" },
	/* Unterminated: at the line that opened what is still open. */
	{ HEAD A0 B8 SIZE16, NULL, 1, 1,
	  "unterminated struct 's': expected '};' before the end of the "
	  "text" },
	{ HEAD A0 "\tunion {\n\t\tint w;\t/* 8 4 */\n", NULL, 3, 2,
	  "unterminated nested struct or union in struct 's': expected '}' "
	  "before the end of the text" },
	/* A member line without its offset comment. */
	{ HEAD A0 "\tlong b;\n" SIZE16 "};\n", NULL, 3, 9,
	  "missing offset comment: expected '/* OFFSET SIZE */' after ';', "
	  "found the end of the line" },
	{ HEAD A0 "\tlong b;\t/* XXX */\n" SIZE16 "};\n", NULL, 3, 10,
	  "expected '/* OFFSET SIZE */' after ';', found '/* XXX */'" },
	{ HEAD A0 "\tlong b\t/* 8 8 */\n" SIZE16 "};\n", NULL, 3, 18,
	  "expected ';' and '/* OFFSET SIZE */' at the end of the member "
	  "line" },
	{ HEAD A0 "\tlong b;\t/* 8 8 */ x\n" SIZE16 "};\n", NULL, 3, 20,
	  "unexpected 'x' after the offset comment" },
	{ HEAD A0 "\tlong b;\t/* 8 8\n" SIZE16 "};\n", NULL, 3, 10,
	  "expected '/* OFFSET SIZE */' after ';', found '/* 8 8'" },
	{ HEAD A0 "\t/* typedef x\n" SIZE16 "};\n", NULL, 3, 2,
	  "unterminated comment: expected '*/' before the end of the line" },
	{ HEAD A0 "\tlong b;\t/* 4294967296 8 */\n" SIZE16 "};\n", NULL, 3, 10,
	  "expected '/* OFFSET SIZE */' after ';', found "
	  "'/* 4294967296 8 */'" },
	{ HEAD A0 "\t;\t/* 8 8 */\n" SIZE16 "};\n", NULL, 3, 2,
	  "expected a member declaration 'TYPE NAME', found ';\t/* 8 8 */'" },
	{ HEAD A0 "\tb;\t/* 8 8 */\n" SIZE16 "};\n", NULL, 3, 2,
	  "expected a member declaration 'TYPE NAME', found 'b;\t/* 8 8 */'" },
	/* Whole-struct checks, when the struct closes. */
	{ HEAD A0 B8 "};\n", NULL, 4, 1,
	  "missing size summary in struct 's': expected '/* size: N, ... */' "
	  "before its '}'" },
	{ HEAD A0 B8 "\t/* size: 12, cachelines: 1 */\n};\n", NULL, 3, 17,
	  "member 'b' (offset 8, size 8) ends beyond the struct size 12" },
	{ HEAD A0 B8 SIZE16 SIZE16 "};\n", NULL, 7, 5,
	  "second size summary in struct 's' (the first is at line 5)" },
	{ HEAD A0 "\tlong a;\t/*     8     8 */\n" SIZE16 "};\n", NULL, 3, 7,
	  "duplicate member 'a' (first at line 2)" },
	/* A duplicate that only exists once an anonymous union is opened. */
	{ HEAD A0 "\tunion {\n\t\tlong a;\t/* 8 8 */\n\t};\t/* 8 8 */\n" SIZE16
		  "};\n",
	  NULL, 4, 8, "duplicate member 'a' (first at line 2)" },
	{ HEAD A0
	  "\tunion {\n\t\tlong b;\t/* 8 8 */\n\t} 9;\t/* 8 8 */\n" SIZE16
	  "};\n",
	  NULL, 5, 3,
	  "expected a member name or nothing after '}', found "
	  "' 9;\t/* 8 8 */'" },
	{ HEAD A0 B8 SIZE16 "};\n", "t", 1, 1,
	  "no struct 't' in the text; found: s" },
};

START_TEST(pahole_parse_bad)
{
	struct sim_error err;

	ck_assert_int_eq(pahole_parse(bad[_i].text, "bad.txt", bad[_i].want,
				      &ps, &err),
			 -1);
	ck_assert_str_eq(err.msg, bad[_i].msg);
	ck_assert_str_eq(err.file, "bad.txt");
	ck_assert_msg(err.line == bad[_i].line && err.col == bad[_i].col,
		      "%u:%u, expected %u:%u", err.line, err.col, bad[_i].line,
		      bad[_i].col);
	ck_assert_uint_eq(ps.nr_fields, 0);
}
END_TEST

/*
 * @nr one-byte members m0, m1, ... written after @open (a struct or
 * union header, or ""), one per line from line 2 (or 3 inside a union).
 */
static char *many_members(unsigned int nr, const char *open, const char *close)
{
	size_t len = 64 * (nr + 8);
	char *text = malloc(len);
	size_t used;
	unsigned int i;

	ck_assert_ptr_nonnull(text);
	used = (size_t)snprintf(text, len, "struct big {\n%s", open);
	for (i = 0; i < nr; i++)
		used += (size_t)snprintf(text + used, len - used,
					 "\tchar m%u;\t/* %u 1 */\n", i, i);
	snprintf(text + used, len - used, "%s\t/* size: %u */\n};\n", close,
		 nr);
	return text;
}

/*
 * PAHOLE_MAX_FIELDS (256) members fit; the 257th, m256 on line 258, is an
 * error at its name (col 7: tab, "char ", name). Inside a named struct the
 * 300 members are one member of "big", so that is fine; inside an
 * anonymous union they would all be members of "big", so it is the same
 * error at m256, now on line 259.
 */
START_TEST(pahole_parse_too_many)
{
	struct sim_error err;
	char *text;

	text = many_members(256, "", "");
	ck_assert_int_eq(pahole_parse(text, "big.txt", NULL, &ps, &err), 0);
	ck_assert_uint_eq(ps.nr_fields, 256);
	ck_assert_uint_eq(pahole_field(&ps, "m255")->offset, 255);
	free(text);

	text = many_members(257, "", "");
	ck_assert_int_eq(pahole_parse(text, "big.txt", NULL, &ps, &err), -1);
	ck_assert_str_eq(err.msg, "too many members in struct 'big': at most "
				  "256");
	ck_assert_uint_eq(err.line, 258);
	ck_assert_uint_eq(err.col, 7);
	free(text);

	text = many_members(300, "\tstruct {\n", "\t} inner;\t/* 0 300 */\n");
	ck_assert_int_eq(pahole_parse(text, "big.txt", NULL, &ps, &err), 0);
	ck_assert_uint_eq(ps.nr_fields, 1);
	ck_assert_str_eq(ps.fields[0].name, "inner");
	ck_assert_uint_eq(ps.fields[0].size, 300);
	free(text);

	text = many_members(300, "\tunion {\n", "\t};\t/* 0 300 */\n");
	ck_assert_int_eq(pahole_parse(text, "big.txt", NULL, &ps, &err), -1);
	ck_assert_str_eq(err.msg, "too many members in struct 'big': at most "
				  "256");
	ck_assert_uint_eq(err.line, 259);
	ck_assert_uint_eq(err.col, 7);
	free(text);
}
END_TEST

/*
 * CRLF line ends (a fixture saved on Windows) and no newline at the end.
 * Expect the same result as with "\n".
 */
START_TEST(pahole_parse_crlf)
{
	struct sim_error err;

	ck_assert_int_eq(pahole_parse(HEAD A0 B8 SIZE16 "};", "t.txt", NULL,
				      &ps, &err),
			 0);
	ck_assert_uint_eq(ps.nr_fields, 2);
	ck_assert_int_eq(pahole_parse("struct s {\r\n\tlong a;\t/* 0 8 */\r\n"
				      "\t/* size: 8 */\r\n};\r\n",
				      "t.txt", NULL, &ps, &err),
			 0);
	ck_assert_uint_eq(ps.size, 8);
	ck_assert_str_eq(ps.fields[0].name, "a");
}
END_TEST

/* A missing file: expect a file-level error (line 0) naming the path. */
START_TEST(pahole_load_missing)
{
	struct sim_error err;

	ck_assert_int_eq(pahole_load("no/such/pahole.txt", NULL, &ps, &err),
			 -1);
	ck_assert_str_eq(err.file, "no/such/pahole.txt");
	ck_assert_uint_eq(err.line, 0);
	ck_assert_str_eq(err.msg,
			 "cannot open pahole text: No such file or directory");
}
END_TEST

/*
 * A file of 1 MiB + 1 bytes, and one with a NUL byte at line 2, column 2
 * (after a tab). Expect "larger than 1 MiB" (line 0) and "not pahole
 * text" at 2:2.
 */
START_TEST(pahole_load_not_text)
{
	char path[] = "/tmp/check_pahole.XXXXXX";
	struct sim_error err;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 1024 * 1024, SEEK_SET), 0);
	ck_assert_int_eq(fputc('\n', f), '\n');
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(pahole_load(path, NULL, &ps, &err), -1);
	ck_assert_str_eq(err.msg, "pahole text is larger than 1 MiB");
	ck_assert_uint_eq(err.line, 0);

	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite("struct s {\n\t\0", 1, 13, f), 13);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(pahole_load(path, NULL, &ps, &err), -1);
	unlink(path);
	ck_assert_str_eq(err.msg, "not pahole text: found a NUL byte");
	ck_assert_uint_eq(err.line, 2);
	ck_assert_uint_eq(err.col, 2);
}
END_TEST

static Suite *pahole_suite(void)
{
	Suite *s = suite_create("pahole");
	TCase *tc = tcase_create("fixtures");

	tcase_add_test(tc, pahole_load_page_counter_v6_0);
	tcase_add_test(tc, pahole_load_page_counter_v6_0_expanded);
	tcase_add_test(tc, pahole_load_page_counter_v6_1);
	tcase_add_test(tc, pahole_load_page_counter_partial);
	tcase_add_test(tc, pahole_load_exotic);
	tcase_add_test(tc, pahole_load_want);
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_loop_test(tc, pahole_parse_declarator, 0, ARRAY_SIZE(decls));
	tcase_add_test(tc, pahole_parse_crlf);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, pahole_parse_bad, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, pahole_parse_too_many);
	tcase_add_test(tc, pahole_load_missing);
	tcase_add_test(tc, pahole_load_not_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pahole_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
