// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: any bytes as a perf.data image, through the
 * consumers that resolve samples (threads, maps, symbols, call chains,
 * dwarf stacks, tracepoint fields): report's histograms as text with
 * perf's default call graph, as JSON, mperf script, and report's
 * exports (folded stacks, the flame graph, pprof).  The maps a file
 * names are opened as report opens them (regular files only).
 */
#include <stdint.h>
#include <stdio.h>
#include "../../src/perfdata/perfdata.h"
#include "../../src/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct report_hist_opts ho = {
		.keys = { REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM },
		.nr_keys = 3,
		.children = -1,
		.cc_min_percent = 0.5,
	};
	struct report_script_opts so;
	struct pdata *p;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if ((p = pdata__open_mem(data, size))) {
		report__hist(p, "fuzz", &ho, devnull);
		pdata__close(p);
	}
	ho.json = true;
	ho.keys[ho.nr_keys++] = REPORT_KEY_PID;
	if ((p = pdata__open_mem(data, size))) {
		report__hist(p, "fuzz", &ho, devnull);
		pdata__close(p);
	}
	report__script_defaults(&so);
	if ((p = pdata__open_mem(data, size))) {
		report__script(p, "fuzz", &so, devnull);
		pdata__close(p);
	}
	for (int fmt = REPORT_EXPORT_FOLDED; fmt <= REPORT_EXPORT_PPROF; fmt++) {
		struct report_export_opts eo = { .format = (enum report_export_format)fmt };

		if ((p = pdata__open_mem(data, size))) {
			report__export(p, "fuzz", &eo, devnull);
			pdata__close(p);
		}
	}
	return 0;
}
