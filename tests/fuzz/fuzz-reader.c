// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: any bytes as a perf.data image, through report -D, then --header-only. */
#include <stdint.h>
#include <stdio.h>
#include "../../src/perfdata/perfdata.h"
#include "../../src/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct pdata *p;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	p = pdata__open_mem(data, size);
	if (!p)
		return 0;
	report__dump(p, "fuzz", devnull);
	pdata__close(p);
	/* The feature sections' decoders (BPF, BTF, PMU caps...), and a stream's FEATURE records. */
	p = pdata__open_mem(data, size);
	if (!p)
		return 0;
	report__header(p, "fuzz", 0, true, devnull);	/* -I: the topologies whole too */
	pdata__close(p);
	return 0;
}
