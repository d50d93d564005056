/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_ALLOC_H
#define MPERF_LIB_ALLOC_H

#include <errno.h>
#include <stddef.h>

/*
 * The one way arrays grow in mperf, after git's ALLOC_GROW: make room for
 * at least nr elements in array, whose capacity (a size_t lvalue) is
 * alloc.  The capacity at least doubles, so appending is amortised O(1).
 * Evaluates to 0, or -ENOMEM with array and alloc untouched.
 *
 *	if (ALLOC_GROW(v, n + 1, cap))
 *		return -ENOMEM;
 *	v[n++] = x;
 */
void *alloc_grow_(void *array, size_t elem, size_t nr, size_t *alloc);

#define ALLOC_GROW(array, nr, alloc) ({						\
	int alloc_err_ = 0;							\
	if ((size_t)(nr) > (alloc)) {						\
		size_t alloc_n_ = (alloc);					\
		void *alloc_p_ = alloc_grow_((array), sizeof(*(array)), (nr), &alloc_n_); \
		if (alloc_p_) {							\
			(array) = alloc_p_;					\
			(alloc) = alloc_n_;					\
		} else {							\
			alloc_err_ = -ENOMEM;					\
		}								\
	}									\
	alloc_err_;								\
})

#endif
