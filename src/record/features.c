// SPDX-License-Identifier: GPL-2.0-only
/* What the feature sections say about this machine and this recording. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "../host/host.h"
#include "../perfdata/format.h"
#include "../lib/log.h"
#include "internal.h"

#ifndef MPERF_VERSION
#define MPERF_VERSION "0.1.0"
#endif

/* CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and MEM_TOPOLOGY: each one the host could read whole. */
static int topology(struct pdata_writer *w, const struct host_topology *t)
{
	struct pd_cpu_ids *ids = calloc((size_t)t->nr_cpus + 1, sizeof(*ids));
	struct pd_numa_node *numa = calloc((size_t)t->nr_numa + 1, sizeof(*numa));
	struct pd_cache_level *cache = calloc((size_t)t->nr_caches + 1, sizeof(*cache));
	struct pd_mem_node *mem = calloc((size_t)t->nr_mem + 1, sizeof(*mem));
	int err = ids && numa && cache && mem ? 0 : mperf_error(-ENOMEM, "out of memory");

	if (!err && t->has_cpu_topology) {
		struct pdw_cpu_topology ct = {
			.nr_packages = t->nr_packages, .nr_cores = t->nr_cores, .nr_dies = t->nr_dies,
			.packages = (const char *const *)t->packages, .cores = (const char *const *)t->cores,
			.dies = (const char *const *)t->dies, .nr_cpus = (uint32_t)t->nr_cpus, .cpus = ids,
		};

		for (int i = 0; i < t->nr_cpus; i++)
			ids[i] = (struct pd_cpu_ids){ t->cpus[i].core, t->cpus[i].socket, t->cpus[i].die };
		err = pdw__feat_cpu_topology(w, &ct);
	}
	for (uint32_t i = 0; i < t->nr_numa; i++)
		numa[i] = (struct pd_numa_node){ t->numa[i].node, t->numa[i].mem_total, t->numa[i].mem_free, t->numa[i].cpus };
	if (!err && t->has_numa)
		err = pdw__feat_numa_topology(w, numa, t->nr_numa);
	for (uint32_t i = 0; i < t->nr_caches; i++) {
		const struct host_cache *c = &t->caches[i];

		cache[i] = (struct pd_cache_level){ c->level, c->line_size, c->sets, c->ways, c->type, c->size, c->map };
	}
	/* perf does not send CACHE in a stream. */
	if (!err && t->has_cache && !pdw__is_pipe(w))
		err = pdw__feat_cache(w, cache, t->nr_caches);
	for (uint64_t i = 0; i < t->nr_mem; i++)
		mem[i] = (struct pd_mem_node){ .node = t->mem[i].node, .nr_bits = t->mem[i].nr_bits, .bits = t->mem[i].bits };
	if (!err && t->has_mem)
		err = pdw__feat_mem_topology(w, t->mem_block_size, mem, t->nr_mem);
	free(ids);
	free(numa);
	free(cache);
	free(mem);
	return err;
}

/*
 * PMU_MAPPINGS; CPU_PMU_CAPS when there is a PMU "cpu"; PMU_CAPS, the
 * others that have some, a hybrid CPU's core PMUs first (perf 6.1's
 * order); HYBRID_TOPOLOGY when there are such PMUs.
 */
static int pmus(struct pdata_writer *w, const struct host_topology *t)
{
	struct pd_pmu_mapping *m = calloc((size_t)t->nr_pmus + 1, sizeof(*m));
	struct pdw_pmu_caps *caps = calloc((size_t)t->nr_pmus + 1, sizeof(*caps));
	struct pd_hybrid_node *hybrid = calloc((size_t)t->nr_pmus + 1, sizeof(*hybrid));
	uint32_t nr_caps = 0, nr_hybrid = 0;
	int err = m && caps && hybrid ? 0 : mperf_error(-ENOMEM, "out of memory");

	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; !err && i < t->nr_pmus; i++) {
			const struct host_pmu *p = &t->pmus[i];
			struct pdw_pmu_caps pc = { p->name, p->nr_caps, (const char *const *)p->cap_names,
						   (const char *const *)p->cap_values };

			if (pass == 0 && p->hybrid_cpus)
				hybrid[nr_hybrid++] = (struct pd_hybrid_node){ p->name, p->hybrid_cpus };
			if (pass == 0)
				m[i] = (struct pd_pmu_mapping){ p->type, p->name };
			if (pass == 0 && !strcmp(p->name, "cpu"))
				err = pdw__feat_cpu_pmu_caps(w, &pc);
			else if (p->nr_caps && strcmp(p->name, "cpu") && (pass == 0) == !!p->hybrid_cpus)
				caps[nr_caps++] = pc;
		}
	if (!err && !(err = pdw__feat_pmu_mappings(w, m, t->nr_pmus)))
		err = pdw__feat_pmu_caps(w, caps, nr_caps);
	if (!err && nr_hybrid)
		err = pdw__feat_hybrid_topology(w, hybrid, nr_hybrid);
	free(m);
	free(caps);
	free(hybrid);
	return err;
}

/*
 * The features perf 6.1 record writes of every recording, with this
 * machine's values (perf's own decisions: CACHE not in a stream; BPF
 * programs and their BTF: none, mperf records no BPF program's info;
 * SAMPLE_TIME zeros until the recording knows better).
 */
static int machine_features(struct pdata_writer *w, const struct host_topology *t)
{
	struct utsname u;
	char desc[256], cpuid[128];
	long onln = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
	/* NRCPUS's "available" is the present CPUs' count, which CPU_TOPOLOGY's ids follow. */
	uint32_t avail = t->nr_cpus > 0 ? (uint32_t)t->nr_cpus : (uint32_t)(conf > 0 ? conf : 1);
	int err;

	if (uname(&u) < 0)
		return mperf_error(-errno, "uname failed: %s", strerror(errno));
	host_cpu_desc(desc, sizeof(desc));
	if ((err = pdw__feat_string(w, PD_FEAT_HOSTNAME, u.nodename)) ||
	    (err = pdw__feat_string(w, PD_FEAT_OSRELEASE, u.release)) ||
	    (err = pdw__feat_string(w, PD_FEAT_VERSION, MPERF_VERSION)) ||
	    (err = pdw__feat_string(w, PD_FEAT_ARCH, u.machine)) ||
	    (err = pdw__feat_nrcpus(w, avail, (uint32_t)(onln > 0 ? onln : 1))) ||
	    (err = pdw__feat_string(w, PD_FEAT_CPUDESC, desc)) ||
	    (!host_cpuid(cpuid, sizeof(cpuid)) && (err = pdw__feat_string(w, PD_FEAT_CPUID, cpuid))) ||
	    (err = pdw__feat_u64(w, PD_FEAT_TOTAL_MEM, host_total_mem_kb())) ||
	    (err = topology(w, t)) || (err = pmus(w, t)) ||
	    (err = pdw__feat_sample_time(w, 0, 0)) ||
	    (err = pdw__feat_u32(w, PD_FEAT_BPF_PROG_INFO, 0)) || (err = pdw__feat_u32(w, PD_FEAT_BPF_BTF, 0)))
		return err;
	return 0;
}

/*
 * -k: CLOCKID (the clock's resolution in ns, 0 when the host does not
 * say) and CLOCK_DATA (the time of day and the clock's time read one
 * after the other, for converting the samples' times), as perf 6.1
 * writes them; neither without -k.
 */
static int clock_features(struct pdata_writer *w, const struct record_opts *o)
{
	struct pd_feat_clock_data cd = { .version = 1, .clockid = (uint32_t)o->clockid };
	struct timespec res, now;
	struct timeval tod;
	int err;

	if (!o->use_clockid)
		return 0;
	if (clock_getres(o->clockid, &res) || res.tv_sec)
		res.tv_nsec = 0;
	if (gettimeofday(&tod, NULL) || clock_gettime(o->clockid, &now))
		return mperf_error(-errno, "cannot read clock %d: %s", o->clockid, strerror(errno));
	cd.tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_usec * 1000ULL;
	cd.clockid_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	if ((err = pdw__feat_u64(w, PD_FEAT_CLOCKID, (uint64_t)res.tv_nsec)))
		return err;
	return pdw__feat_clock_data(w, &cd);
}

int features__write(struct pdata_writer *w, const struct record_opts *o)
{
	int argc = o->cmd_argc;
	char *const *argv = o->cmd_argv;
	struct host_topology t;
	char self[PATH_MAX];
	const char **args;
	ssize_t n;
	int err;

	if ((err = host_topology_read(&t, "/sys")))
		return mperf_error(err, "cannot read this machine's topology: %s", strerror(-err));
	if (!(err = machine_features(w, &t)))
		err = clock_features(w, o);
	host_topology_free(&t);
	if (err)
		return err;

	/*
	 * CMDLINE: the absolute path of the tool, then the command's own
	 * arguments from "record" on, as perf writes "/usr/bin/perf record -e ...".
	 */
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args)
		return mperf_error(-ENOMEM, "out of memory");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	args[0] = n > 0 ? self : "mperf";
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	err = pdw__feat_strings(w, PD_FEAT_CMDLINE, args, (size_t)argc + 1);
	free(args);
	/* --threads: the directory's version, as perf says its data.N files are there. */
	if (!err && o->threads)
		err = pdw__feat_u64(w, PD_FEAT_DIR_FORMAT, PD_DIR_VERSION);
	return err;
}
