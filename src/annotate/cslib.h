/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libcapstone, loaded by the first cs_open() (cslib.c), not linked: the
 * calls of <capstone/capstone.h> go through it unchanged.
 */
#ifndef MPERF_ANNOTATE_CSLIB_H
#define MPERF_ANNOTATE_CSLIB_H

#include <stdbool.h>

/* Whether libcapstone cannot be loaded (cs_open then fails with CS_ERR_HANDLE). */
bool cslib_missing(void);

#endif
