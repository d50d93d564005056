// SPDX-License-Identifier: GPL-2.0-only
#include <stdint.h>
#include <stdlib.h>
#include "alloc.h"

void *alloc_grow_(void *array, size_t elem, size_t nr, size_t *alloc)
{
	size_t n = *alloc ? *alloc : 16;
	void *p;

	while (n < nr) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (!elem || n > SIZE_MAX / elem)
		return NULL;
	p = realloc(array, n * elem);
	if (p)
		*alloc = n;
	return p;
}
