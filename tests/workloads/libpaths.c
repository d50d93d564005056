// SPDX-License-Identifier: GPL-2.0-only
/*
 * libpaths.so, the shared library of libpaths-main (the call-graph tests
 * of chains that cross DSOs): the program calls into it, and it calls
 * back into the program.
 *
 *   main -> lib_a -> lib_b -> lib_leaf   (in the library)
 *   main -> lib_a -> cb -> cb_leaf       (back in the program)
 *   main -> lib_b -> lib_leaf
 */
static volatile unsigned long lsink;

void lib_leaf(int n)
{
	for (int i = 0; i < n; i++)
		lsink++;
}

void lib_b(int n)
{
	lib_leaf(n);
}

void lib_a(int n, void (*cb)(int))
{
	lib_b(2 * n);
	cb(n);
}
