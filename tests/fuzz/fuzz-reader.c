// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: any bytes as a perf.data image, through the whole report -D path. */
#include <stdint.h>
#include <stdio.h>
#include "../../src/perfdata/perfdata.h"
#include "../../src/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char err[512];
	struct pdata *p;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	p = pdata__open_mem(data, size, err, sizeof(err));
	if (!p)
		return 0;
	report__dump(p, "fuzz", devnull, err, sizeof(err));
	pdata__close(p);
	return 0;
}
