// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "buf.h"

int mbuf_reserve(struct mbuf *b, size_t extra)
{
	if (extra > ((size_t)-1) / 2 - b->len)
		return -ENOMEM;
	return ALLOC_GROW(b->p, b->len + extra, b->cap);
}

int mbuf_add(struct mbuf *b, const void *data, size_t len)
{
	int err = mbuf_reserve(b, len);

	if (err)
		return err;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

int mbuf_addz(struct mbuf *b, size_t len)
{
	int err = mbuf_reserve(b, len);

	if (err)
		return err;
	memset(b->p + b->len, 0, len);
	b->len += len;
	return 0;
}

void mbuf_free(struct mbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
