// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's features: host_topology_read on a made-up sysfs tree (four
 * CPUs, one offline, two packages, SMT pairs, caches private and shared,
 * two NUMA nodes, PMUs with and without capabilities), then each encoder
 * of the writer read back through its decoder in format.h: CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, PMU_MAPPINGS, PMU_CAPS, CPU_PMU_CAPS, HYBRID_TOPOLOGY,
 * CLOCK_DATA, and the u32 counts of BPF_PROG_INFO and BPF_BTF.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/host/host.h"
#include "../../src/perfdata/perfdata.h"
#include "tap.h"

static char root[64];

/* Write root/rel (its directories made first). */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void put_cache(int cpu, int index, const char *level, const char *type, const char *size, const char *map)
{
	static const char *const names[] = { "level", "type", "size", "shared_cpu_list", "coherency_line_size",
					     "number_of_sets", "ways_of_associativity" };
	const char *values[] = { level, type, size, map, "64\n", "64\n", "8\n" };
	char rel[256];

	for (int i = 0; i < 7; i++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/%s", cpu, index, names[i]);
		put(rel, values[i]);
	}
}

/* CPUs 0-3 present, 3 offline; packages {0,1} {2,3}; cores {0,1} {2}. */
static void make_tree(void)
{
	static const char *const topo[3][7] = {
		{ "0-1\n", "0-1\n", "0-1\n", "0\n", "0\n", "0\n", "0" },
		{ "0-1\n", "0-1\n", "0-1\n", "0\n", "0\n", "0\n", "1" },
		{ "2-3\n", "2-3\n", "2\n", "1\n", "1\n", "1\n", "2" },
	};
	static const char *const files[6] = { "package_cpus_list", "die_cpus_list", "core_cpus_list", "core_id",
					      "physical_package_id", "die_id" };
	char rel[256];

	put("devices/system/cpu/present", "0-3\n");
	put("devices/system/cpu/possible", "0-3\n");
	put("devices/system/cpu/online", "0-2\n");
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < 6; i++) {
			snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%s/topology/%s", topo[c][6], files[i]);
			put(rel, topo[c][i]);
		}
	/* Private L1 and L2 on CPUs 0 and 1 (the L2 shared by the pair); L3 shared. */
	put_cache(0, 0, "1\n", "Data\n", "32K\n", "0\n");
	put_cache(0, 1, "2\n", "Unified\n", "512K\n", "0-1\n");
	put_cache(0, 2, "3\n", "Unified\n", "16384K\n", "0-3\n");
	put_cache(1, 0, "1\n", "Data\n", "32K\n", "1\n");
	put_cache(1, 1, "2\n", "Unified\n", "512K\n", "0-1\n");
	put_cache(1, 2, "3\n", "Unified\n", "16384K\n", "0-3\n");
	put("devices/system/node/online", "0-1\n");
	put("devices/system/node/node0/meminfo", "Node 0 MemTotal:       1000 kB\nNode 0 MemFree:         400 kB\n"
						 "Node 0 MemUsed:         600 kB\n");
	put("devices/system/node/node0/cpulist", "0-1\n");
	put("devices/system/node/node0/memory0", NULL);
	put("devices/system/node/node0/memory2", NULL);
	put("devices/system/node/node1/meminfo", "Node 1 MemTotal:       2000 kB\nNode 1 MemFree:        1500 kB\n");
	put("devices/system/node/node1/cpulist", "2-3\n");
	put("devices/system/node/node1/memory70", NULL);
	put("devices/system/memory/block_size_bytes", "8000000\n");
	put("bus/event_source/devices/software/type", "1\n");
	put("bus/event_source/devices/cpu/type", "4\n");
	put("bus/event_source/devices/cpu/caps/max_precise", "3\n");
	put("bus/event_source/devices/ibs_op/type", "11\n");
	put("bus/event_source/devices/ibs_op/caps/zen4_ibs_extensions", "1\n");
	put("bus/event_source/devices/notype/format/x", "config:0\n");
	put("bus/event_source/devices/cpu_atom/type", "10\n");
	put("bus/event_source/devices/cpu_atom/cpus", "2-3\n");
}

static const struct host_cache *find_cache(const struct host_topology *t, uint32_t level)
{
	for (uint32_t i = 0; i < t->nr_caches; i++)
		if (t->caches[i].level == level)
			return &t->caches[i];
	return NULL;
}

static void test_probe(struct host_topology *t)
{
	const struct host_cache *l2;

	is_int(host_topology_read(t, root), 0, "probe: reads the tree");
	ok(t->has_cpu_topology && t->nr_cpus == 4, "probe: 4 present CPUs (%d)", t->nr_cpus);
	ok(t->nr_packages == 2 && !strcmp(t->packages[0], "0-1") && !strcmp(t->packages[1], "2-3"),
	   "probe: each package's list once, in CPU order");
	ok(t->nr_cores == 2 && !strcmp(t->cores[0], "0-1") && !strcmp(t->cores[1], "2"), "probe: each core's list once");
	ok(t->cpus[2].core == 1 && t->cpus[2].socket == 1 && t->cpus[3].core == -1 && t->cpus[3].socket == -1,
	   "probe: an online CPU's ids, -1 for the offline one");
	ok(t->has_numa && t->nr_numa == 2 && t->numa[1].node == 1 && t->numa[1].mem_total == 2000 &&
	   t->numa[1].mem_free == 1500 && !strcmp(t->numa[1].cpus, "2-3"), "probe: NUMA nodes, memory, CPUs");
	is_int(t->nr_caches, 4, "probe: four distinct caches (L1d twice, L2 and L3 once)");
	ok(t->nr_caches == 4 && t->caches[0].level == 1 && t->caches[1].level == 1 && !strcmp(t->caches[1].map, "1") &&
	   t->caches[2].level == 2 && t->caches[3].level == 3, "probe: caches by level, first seen first");
	l2 = find_cache(t, 2);
	ok(l2 && l2->line_size == 64 && l2->ways == 8 && !strcmp(l2->size, "512K") && !strcmp(l2->type, "Unified"),
	   "probe: a cache's numbers and strings");
	ok(t->has_mem && t->mem_block_size == 0x8000000 && t->nr_mem == 2 && t->mem[0].node == 0 &&
	   t->mem[0].nr_bits == 3 && t->mem[0].bits[0] == 5 && t->mem[1].nr_bits == 71 && t->mem[1].bits[1] == 1ULL << 6,
	   "probe: memory blocks per node, by node");
	is_int(t->nr_pmus, 4, "probe: the PMUs that have a type");
	for (uint32_t i = 0; i < t->nr_pmus; i++)
		if (!strcmp(t->pmus[i].name, "cpu_atom"))
			ok(t->pmus[i].hybrid_cpus && !strcmp(t->pmus[i].hybrid_cpus, "2-3") && !t->pmus[i].nr_caps,
			   "probe: a hybrid core PMU, its CPUs");
		else
			ok(!t->pmus[i].hybrid_cpus, "probe: %s is no hybrid core PMU", t->pmus[i].name);
}

static void write_features(const char *path, const struct host_topology *t, struct pd_feat_clock_data *cd)
{
	struct pdata_writer *w = pdw__create(path);
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .sample_type = PERF_SAMPLE_IP };
	struct pd_cpu_ids ids[4];
	struct pd_numa_node numa[2];
	struct pd_cache_level cache[4];
	struct pd_mem_node mem[2];
	struct pd_pmu_mapping m[4];
	struct pdw_pmu_caps caps[4], cpu_caps = { 0 };
	struct pd_hybrid_node hybrid[4];
	uint32_t nr_caps = 0, nr_hybrid = 0;
	uint64_t id = 1;
	int err = 0;

	if (!ok(w != NULL, "writer: create"))
		return;
	for (int i = 0; i < 4; i++)
		ids[i] = (struct pd_cpu_ids){ t->cpus[i].core, t->cpus[i].socket, t->cpus[i].die };
	for (int i = 0; i < 2; i++) {
		numa[i] = (struct pd_numa_node){ t->numa[i].node, t->numa[i].mem_total, t->numa[i].mem_free, t->numa[i].cpus };
		mem[i] = (struct pd_mem_node){ .node = t->mem[i].node, .nr_bits = t->mem[i].nr_bits, .bits = t->mem[i].bits };
	}
	for (int i = 0; i < 4; i++)
		cache[i] = (struct pd_cache_level){ t->caches[i].level, t->caches[i].line_size, t->caches[i].sets,
						    t->caches[i].ways, t->caches[i].type, t->caches[i].size, t->caches[i].map };
	for (uint32_t i = 0; i < 4; i++) {
		struct pdw_pmu_caps pc = { t->pmus[i].name, t->pmus[i].nr_caps, (const char *const *)t->pmus[i].cap_names,
					   (const char *const *)t->pmus[i].cap_values };

		m[i] = (struct pd_pmu_mapping){ t->pmus[i].type, t->pmus[i].name };
		if (t->pmus[i].hybrid_cpus)
			hybrid[nr_hybrid++] = (struct pd_hybrid_node){ t->pmus[i].name, t->pmus[i].hybrid_cpus };
		if (!strcmp(t->pmus[i].name, "cpu"))
			cpu_caps = pc;
		else if (pc.nr_caps)
			caps[nr_caps++] = pc;
	}
	struct pdw_cpu_topology ct = {
		.nr_packages = t->nr_packages, .nr_cores = t->nr_cores, .nr_dies = 2,
		.packages = (const char *const *)t->packages, .cores = (const char *const *)t->cores,
		.dies = (const char *const *)t->packages, .nr_cpus = 4, .cpus = ids,
	};
	err |= pdw__add_event(w, &a, "cpu-clock", &id, 1);
	err |= pdw__begin_data(w);
	err |= pdw__finished_round(w);	/* a data section that is not empty: the file is whole */
	err |= pdw__feat_nrcpus(w, 4, 3);
	err |= pdw__feat_cpu_topology(w, &ct);
	err |= pdw__feat_numa_topology(w, numa, 2);
	err |= pdw__feat_cache(w, cache, 4);
	err |= pdw__feat_mem_topology(w, t->mem_block_size, mem, 2);
	err |= pdw__feat_pmu_mappings(w, m, 4);
	err |= pdw__feat_hybrid_topology(w, hybrid, nr_hybrid);
	err |= pdw__feat_pmu_caps(w, caps, nr_caps);
	err |= pdw__feat_cpu_pmu_caps(w, &cpu_caps);
	err |= pdw__feat_clock_data(w, cd);
	err |= pdw__feat_u64(w, PD_FEAT_CLOCKID, 1);
	err |= pdw__feat_u32(w, PD_FEAT_BPF_PROG_INFO, 0);
	err |= pdw__feat_u32(w, PD_FEAT_BPF_BTF, 0);
	is_int(err, 0, "writer: every encoder");
	is_int(pdw__finish(w), 0, "writer: finish");
	pdw__close(w);
}

static void check_topology(struct pdata *p)
{
	struct pd_cpu_topology ct;
	size_t len;
	const unsigned char *q = pdata__feature(p, PD_FEAT_CPU_TOPOLOGY, &len);
	struct pd_cpu_ids ids;

	if (!ok(pd_cpu_topology_decode(q, len, 4, &ct) && ct.nr_packages == 2 && ct.nr_cores == 2 && ct.nr_dies == 2,
		"CPU_TOPOLOGY: the three lists' counts"))
		return;
	ok(!strcmp(pd_cursor_string(&ct.packages), "0-1") && !strcmp(pd_cursor_string(&ct.packages), "2-3") &&
	   !strcmp(pd_cursor_string(&ct.cores), "0-1") && !strcmp(pd_cursor_string(&ct.cores), "2"),
	   "CPU_TOPOLOGY: the lists");
	ids = pd_cpu_topology_ids(&ct, 2);
	ok(ids.core == 1 && ids.socket == 1 && ids.die == 1, "CPU_TOPOLOGY: CPU 2's core, socket, die");
	ids = pd_cpu_topology_ids(&ct, 3);
	ok(ids.core == -1 && ids.socket == -1 && ids.die == -1, "CPU_TOPOLOGY: the offline CPU's -1s");
	ok(!pd_cpu_topology_decode(q, len, 5, &ct), "CPU_TOPOLOGY: more CPUs than it holds: refused");
	ok(pd_cpu_topology_decode(q, len - 4 - 4 * 4 - 68 * 2, 4, &ct) && !ct.die_ids && !ct.nr_dies &&
	   pd_cpu_topology_ids(&ct, 0).die == -1, "CPU_TOPOLOGY: without its die part");
}

/* Strings padded to 8, not 64: perf 6.1 counts them as 64 and sees no ids; neither does the decoder. */
static void test_short_padding(void)
{
	unsigned char q[64] = { 0 };
	struct pd_cpu_topology ct;
	uint32_t one = 1, eight = 8;

	memcpy(q, &one, 4);
	memcpy(q + 4, &eight, 4);
	memcpy(q + 8, "0", 2);
	memcpy(q + 16, &one, 4);
	memcpy(q + 20, &eight, 4);
	memcpy(q + 24, "0", 2);
	/* then CPU 0's core 0 and socket 0: 8 bytes, 40 in all */
	ok(pd_cpu_topology_decode(q, 40, 1, &ct) && !ct.ids && pd_cpu_topology_ids(&ct, 0).core == -1,
	   "CPU_TOPOLOGY: lists padded short, ids unseen, as perf 6.1 reads it");
}

static void check_others(struct pdata *p)
{
	struct pd_cursor c;
	struct pd_numa_node n;
	struct pd_cache_level l;
	struct pd_mem_node m;
	struct pd_pmu_mapping pm;
	struct pd_pmu_caps pc;
	struct pd_feat_clock_data cd;
	struct pd_hybrid_node hn;
	const char *name, *value;
	uint32_t nr, version;
	uint64_t v64[3];
	size_t len;
	const unsigned char *q;

	q = pdata__feature(p, PD_FEAT_NUMA_TOPOLOGY, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u32(&c, &nr) && nr == 2 && pd_numa_node_next(&c, &n) && n.node == 0 && n.mem_total == 1000 &&
	   n.mem_free == 400 && !strcmp(n.cpus, "0-1") && pd_numa_node_next(&c, &n) && n.node == 1 &&
	   !strcmp(n.cpus, "2-3") && c.p == c.end, "NUMA_TOPOLOGY: both nodes, nothing after");
	q = pdata__feature(p, PD_FEAT_CACHE, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u32(&c, &version) && version == PD_CACHE_VERSION && pd_cursor_u32(&c, &nr) && nr == 4,
	   "CACHE: version 1, four caches");
	for (uint32_t i = 0; i < 3; i++)
		pd_cache_level_next(&c, &l);
	ok(pd_cache_level_next(&c, &l) && l.level == 3 && l.line_size == 64 && l.sets == 64 && l.ways == 8 &&
	   !strcmp(l.type, "Unified") && !strcmp(l.size, "16384K") && !strcmp(l.map, "0-3") && c.p == c.end,
	   "CACHE: the last one, whole");
	q = pdata__feature(p, PD_FEAT_MEM_TOPOLOGY, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u64(&c, &v64[0]) && pd_cursor_u64(&c, &v64[1]) && pd_cursor_u64(&c, &v64[2]) &&
	   v64[0] == PD_MEM_TOPOLOGY_VERSION && v64[1] == 0x8000000 && v64[2] == 2, "MEM_TOPOLOGY: version, block size, nodes");
	ok(pd_mem_node_next(&c, &m) && m.node == 0 && m.nr_bits == 3 && pd_mem_node_bit(&m, 0) &&
	   !pd_mem_node_bit(&m, 1) && pd_mem_node_bit(&m, 2) && !pd_mem_node_bit(&m, 3), "MEM_TOPOLOGY: node 0's blocks 0 and 2");
	ok(pd_mem_node_next(&c, &m) && m.node == 1 && m.nr_bits == 71 && m.nr_words == 2 && pd_mem_node_bit(&m, 70) &&
	   !pd_mem_node_bit(&m, 69) && c.p == c.end, "MEM_TOPOLOGY: node 1's block 70, two words");
	q = pdata__feature(p, PD_FEAT_PMU_MAPPINGS, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u32(&c, &nr) && nr == 4, "PMU_MAPPINGS: four PMUs");
	for (uint32_t i = 0; i < nr && pd_pmu_mapping_next(&c, &pm); i++)
		if (!strcmp(pm.name, "cpu"))
			is_int(pm.type, 4, "PMU_MAPPINGS: cpu's type");
	q = pdata__feature(p, PD_FEAT_PMU_CAPS, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u32(&c, &nr) && nr == 1 && pd_pmu_caps_next(&c, &pc) && !strcmp(pc.pmu, "ibs_op") &&
	   pd_pmu_cap_next(&pc.pairs, &name, &value) && !strcmp(name, "zen4_ibs_extensions") && !strcmp(value, "1"),
	   "PMU_CAPS: the one PMU other than cpu with capabilities");
	q = pdata__feature(p, PD_FEAT_HYBRID_TOPOLOGY, &len);
	c = (struct pd_cursor){ q, q + len };
	ok(pd_cursor_u32(&c, &nr) && nr == 1 && pd_hybrid_node_next(&c, &hn) && !strcmp(hn.pmu, "cpu_atom") &&
	   !strcmp(hn.cpus, "2-3") && c.p == c.end, "HYBRID_TOPOLOGY: the core PMU and its CPUs");
	q = pdata__feature(p, PD_FEAT_CPU_PMU_CAPS, &len);
	ok(pd_cpu_pmu_caps_decode(q, len, &pc) && pc.nr_caps == 1 && pd_pmu_cap_next(&pc.pairs, &name, &value) &&
	   !strcmp(name, "max_precise") && !strcmp(value, "3"), "CPU_PMU_CAPS: cpu's pairs, no name");
	q = pdata__feature(p, PD_FEAT_CLOCK_DATA, &len);
	ok(pd_feat_clock_data_decode(q, len, &cd) && cd.version == 1 && cd.clockid == 1 && cd.tod_ns == 123 &&
	   cd.clockid_ns == 456, "CLOCK_DATA: version, clock, both times");
	q = pdata__feature(p, PD_FEAT_BPF_BTF, &len);
	ok(q && len == 4 && !q[0] && !q[1] && !q[2] && !q[3], "BPF_BTF: a count of 0");
}

/* -k's clock names: perf's names and aliases, CLOCK_ and any case; the name printed is the first. */
static void test_clock_names(void)
{
	int id = -1, id2 = -1;

	ok(!pd_clock_parse("monotonic_raw", &id) && id == CLOCK_MONOTONIC_RAW &&
	   !pd_clock_parse("CLOCK_Boot", &id2) && id2 == CLOCK_BOOTTIME, "clock names: a name, an alias with CLOCK_");
	ok(pd_clock_parse("sundial", &id) && pd_clock_parse("CLOCK_", &id), "clock names: unknown ones refused");
	ok(!strcmp(pd_clock_name(CLOCK_REALTIME), "realtime") && !strcmp(pd_clock_name(CLOCK_TAI), "tai") &&
	   !pd_clock_name(3), "clock names: perf's name of an id, none for a clock perf does not name");
}

int main(void)
{
	struct host_topology t;
	struct pd_feat_clock_data cd = { .version = 1, .clockid = 1, .tod_ns = 123, .clockid_ns = 456 };
	char path[128];
	struct pdata *p;

	snprintf(root, sizeof(root), "/tmp/mperf-topo-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	make_tree();
	test_probe(&t);
	test_short_padding();
	test_clock_names();
	snprintf(path, sizeof(path), "%s/f.data", root);
	if (t.nr_cpus == 4 && t.nr_numa == 2 && t.nr_caches == 4 && t.nr_mem == 2 && t.nr_pmus == 4) {
		write_features(path, &t, &cd);
		p = pdata__open(path);
		if (ok(p != NULL, "reader: open")) {
			check_topology(p);
			check_others(p);
			pdata__close(p);
		}
	}
	host_topology_free(&t);
	if (!getenv("KEEP") && system("rm -rf /tmp/mperf-topo-*") < 0)
		diag("cannot remove %s", root);
	return done_testing();
}
