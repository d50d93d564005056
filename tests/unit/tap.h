/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_TESTS_TAP_H
#define MPERF_TESTS_TAP_H

/*
 * A tiny TAP producer for the unit tests, one test program per file:
 *
 *	ok(cond, "what it checks %d", i);
 *	is_int(got, expected, "name");  is_u64(...);  is_str(...);
 *	skip(n, "why");                  todo_start("why"); ... todo_end();
 *	diag(...) to stderr, note(...) to stdout, both as "# ..." lines
 *	return done_testing();           exit status 1 if anything failed
 *
 * Diagnostics of a failure go to stderr as "# got X, expected Y".  Tests
 * between todo_start() and todo_end() are known failures: reported with a
 * "# TODO" directive, so they neither fail the suite nor go unnoticed.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed, tap_planned = -1;
static const char *tap_todo;

static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

static inline void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A comment line in the TAP stream (shown by prove -v). */
static inline void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline bool tap_vok(bool pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_run++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	if (tap_todo)
		printf(" # TODO %s", tap_todo);
	putchar('\n');
	if (!pass && !tap_todo) {
		tap_failed++;
		diag("failed at %s:%d", file, line);
	}
	return pass;
}

static inline bool tap_ok(bool pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline bool tap_ok(bool pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pass = tap_vok(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline bool tap_is_int(long long got, long long exp, const char *file, int line,
			      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static inline bool tap_is_int(long long got, long long exp, const char *file, int line,
			      const char *fmt, ...)
{
	va_list ap;
	bool pass;

	va_start(ap, fmt);
	pass = tap_vok(got == exp, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("got %lld, expected %lld", got, exp);
	return pass;
}

static inline bool tap_is_u64(uint64_t got, uint64_t exp, const char *file, int line,
			      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static inline bool tap_is_u64(uint64_t got, uint64_t exp, const char *file, int line,
			      const char *fmt, ...)
{
	va_list ap;
	bool pass;

	va_start(ap, fmt);
	pass = tap_vok(got == exp, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("got %" PRIu64 " (%#" PRIx64 "), expected %" PRIu64 " (%#" PRIx64 ")",
		     got, got, exp, exp);
	return pass;
}

static inline bool tap_is_str(const char *got, const char *exp, const char *file, int line,
			      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static inline bool tap_is_str(const char *got, const char *exp, const char *file, int line,
			      const char *fmt, ...)
{
	va_list ap;
	bool pass = got && exp ? !strcmp(got, exp) : got == exp;

	va_start(ap, fmt);
	pass = tap_vok(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		diag("got %s%s%s, expected %s%s%s", got ? "'" : "", got ? got : "NULL",
		     got ? "'" : "", exp ? "'" : "", exp ? exp : "NULL", exp ? "'" : "");
	return pass;
}

#define is_int(got, exp, ...) \
	tap_is_int((long long)(got), (long long)(exp), __FILE__, __LINE__, __VA_ARGS__)
#define is_u64(got, exp, ...) \
	tap_is_u64((uint64_t)(got), (uint64_t)(exp), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, exp, ...) tap_is_str((got), (exp), __FILE__, __LINE__, __VA_ARGS__)

/* Record n tests as skipped. */
static inline void skip(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # skip %s\n", ++tap_run, why);
}

static inline void todo_start(const char *why)
{
	tap_todo = why;
}

static inline void todo_end(void)
{
	tap_todo = NULL;
}

/* Print the plan if none was given; the exit status for main(). */
static inline int done_testing(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	else if (tap_run != tap_planned)
		diag("planned %d tests but ran %d", tap_planned, tap_run);
	fflush(stdout);
	if (tap_failed)
		diag("%d of %d tests failed", tap_failed, tap_run);
	return tap_failed || (tap_planned >= 0 && tap_run != tap_planned) ? 1 : 0;
}

#endif
