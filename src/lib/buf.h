/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_BUF_H
#define MPERF_LIB_BUF_H

#include <stddef.h>

/* A growable byte buffer.  Zero-initialise before use; mbuf_free() releases it. */
struct mbuf {
	char *p;
	size_t len;
	size_t cap;
};

int mbuf_reserve(struct mbuf *b, size_t extra);
int mbuf_add(struct mbuf *b, const void *data, size_t len);
int mbuf_addz(struct mbuf *b, size_t len); /* append len zero bytes */
void mbuf_free(struct mbuf *b);

#endif
