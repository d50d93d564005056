/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_PERFDATA_DIR_H
#define MPERF_PERFDATA_DIR_H

/*
 * perf's directory format (perf record --threads): DIR/data is a whole
 * perf.data file (header, attrs, the records perf makes itself, the
 * features, among them DIR_FORMAT) and each DIR/data.N is one drain
 * thread's raw stream of ring-buffer records, with no header.  This is
 * the reader's side: finding the data.N files and mapping them.
 */

#include <stddef.h>
#include <stdint.h>

/* One data.N file, mapped read-only (mem NULL when empty). */
struct pd_part {
	char *path;			/* "DIR/data.N", as perf names it in -D */
	const unsigned char *mem;
	size_t len;
};

/*
 * The non-empty regular files DIR/data.* in the directory's own order
 * (readdir's, as perf 6.1 opens them and reads them one after the other),
 * mapped.  0 and *parts (malloc'd) or a negative errno with err set.
 */
int pd_dir_parts(const char *dir, struct pd_part **parts, size_t *nr, char *err, size_t errlen);
void pd_dir_parts_free(struct pd_part *parts, size_t nr);

#endif
