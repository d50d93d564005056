// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's shape as perf 6.1's header describes it, read from sysfs
 * the way perf reads it: the CPUs' packages, dies, cores and ids
 * (devices/system/cpu), the NUMA nodes and their memory blocks
 * (devices/system/node, devices/system/memory), the caches
 * (cpuN/cache/indexM), the PMUs and their capabilities
 * (bus/event_source/devices).  Each part that cannot be read whole is
 * left out (its has_ flag false), as perf leaves out a feature it cannot
 * write.  Everything is read once, by host_topology_read.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "host.h"

#define MAX_CACHE_INDEX	4	/* perf reads cache/index0..index3 of each CPU */

/* A sysfs value: the first line, blanks trimmed both ends (perf's strim); NULL if unreadable. */
static char *read_line(const char *path)
{
	char buf[4096], *s, *e;

	if (host_read_small_file(path, buf, sizeof(buf)) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = 0;
	for (s = buf; *s == ' ' || *s == '\t'; s++)
		;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*e = 0;
	return strdup(s);
}

static bool read_long(const char *path, int base, long long *v)
{
	char buf[64], *end;

	if (host_read_small_file(path, buf, sizeof(buf)) <= 0)
		return false;
	errno = 0;
	*v = strtoll(buf, &end, base);
	return end != buf && !errno;
}

/* The highest CPU of a list file (present, possible) plus one, or 0. */
static int list_end(const char *path)
{
	char buf[4096];
	long max = -1;

	if (host_read_small_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (char *p = buf; *p;) {
		char *end;
		long v;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		v = strtol(p, &end, 10);
		if (v > max)
			max = v;
		p = end;
	}
	return max < 0 || max >= 1 << 20 ? 0 : (int)max + 1;
}

/* Add s to the list unless it is there already (perf keeps each sibling list once). */
static int add_unique(char ***list, uint32_t *nr, char *s)
{
	char **grown;

	for (uint32_t i = 0; i < *nr; i++)
		if (!strcmp((*list)[i], s)) {
			free(s);
			return 0;
		}
	if (!(grown = realloc(*list, (*nr + 1) * sizeof(**list)))) {
		free(s);
		return -ENOMEM;
	}
	*list = grown;
	(*list)[(*nr)++] = s;
	return 0;
}

/* One sibling list of an online CPU: the file, or the older name when it is missing. */
static int sibling_list(const char *sys, int cpu, const char *name, const char *old, char ***list, uint32_t *nr)
{
	char path[512];
	char *s;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", sys, cpu, name);
	if (old && access(path, F_OK))
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", sys, cpu, old);
	if (!(s = read_line(path)))
		return 0;
	return add_unique(list, nr, s);
}

static int32_t topology_id(const char *sys, int cpu, const char *name)
{
	char path[512];
	long long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", sys, cpu, name);
	return read_long(path, 10, &v) ? (int32_t)v : -1;
}

/* perf writes dies on x86_64 and s390x, when cpu0 has a die list. */
static bool has_dies(const char *sys)
{
	struct utsname u;
	char path[512];

	if (uname(&u) < 0 || (strncmp(u.machine, "x86_64", 6) && strncmp(u.machine, "s390x", 5)))
		return false;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/topology/die_cpus_list", sys);
	return !access(path, F_OK);
}

static int cpu_topology(struct host_topology *t, const char *sys)
{
	char path[512], list[4096];
	int online[4096], nr_online = -1, err = 0;
	bool dies = has_dies(sys);

	snprintf(path, sizeof(path), "%s/devices/system/cpu/present", sys);
	t->nr_cpus = list_end(path);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", sys);
	if (host_read_small_file(path, list, sizeof(list)) > 0)
		nr_online = host_parse_cpu_list(list, online, 4096);
	if (!t->nr_cpus || nr_online < 0)
		return 0;
	/* The lists of the online CPUs below the present ones' end, in CPU order. */
	for (int i = 0; i < nr_online && !err; i++) {
		int cpu = online[i];

		if (cpu >= t->nr_cpus)
			continue;
		if (!(err = sibling_list(sys, cpu, "package_cpus_list", "core_siblings_list", &t->packages, &t->nr_packages)) &&
		    !(err = dies ? sibling_list(sys, cpu, "die_cpus_list", NULL, &t->dies, &t->nr_dies) : 0))
			err = sibling_list(sys, cpu, "core_cpus_list", "thread_siblings_list", &t->cores, &t->nr_cores);
	}
	if (err || !(t->cpus = calloc((size_t)t->nr_cpus, sizeof(*t->cpus))))
		return err ? err : -ENOMEM;
	/* The ids of every present CPU; -1 for one that has none (offline). */
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		t->cpus[cpu].core = topology_id(sys, cpu, "core_id");
		t->cpus[cpu].socket = topology_id(sys, cpu, "physical_package_id");
		t->cpus[cpu].die = topology_id(sys, cpu, "die_id");
	}
	t->has_cpu_topology = true;
	return 0;
}

/* A node's MemTotal and MemFree ("Node 0 MemTotal:  24683748 kB") and its CPU list. */
static bool numa_node(const char *sys, struct host_numa_node *n)
{
	char path[512], buf[8192], field[32];
	unsigned long long v;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%u/meminfo", sys, n->node);
	if (host_read_small_file(path, buf, sizeof(buf)) <= 0)
		return false;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strchr(line, ':'))
			continue;
		if (sscanf(line, "%*s %*d %31s %llu", field, &v) != 2)
			return false;
		if (!strcmp(field, "MemTotal:"))
			n->mem_total = v;
		if (!strcmp(field, "MemFree:"))
			n->mem_free = v;
		if (n->mem_total && n->mem_free)
			break;
	}
	snprintf(path, sizeof(path), "%s/devices/system/node/node%u/cpulist", sys, n->node);
	return (n->cpus = read_line(path)) != NULL;
}

static int numa_topology(struct host_topology *t, const char *sys)
{
	char path[512], buf[4096];
	int nodes[1024], nr;

	snprintf(path, sizeof(path), "%s/devices/system/node/online", sys);
	if (host_read_small_file(path, buf, sizeof(buf)) <= 0 || (nr = host_parse_cpu_list(buf, nodes, 1024)) < 0)
		return 0;
	if (!(t->numa = calloc((size_t)nr + 1, sizeof(*t->numa))))
		return -ENOMEM;
	for (t->nr_numa = 0; t->nr_numa < (uint32_t)nr; t->nr_numa++) {
		t->numa[t->nr_numa].node = (uint32_t)nodes[t->nr_numa];
		if (!numa_node(sys, &t->numa[t->nr_numa]))
			return 0;
	}
	t->has_numa = true;
	return 0;
}

/*
 * Cache indexI of a CPU: 1 when it has none, -1 when a file is unreadable.
 * Its level, type and CPUs first: a cache seen from another CPU of that
 * list (the same level and type) is that one, and its other files are not read.
 */
static int cache_read(const char *sys, int cpu, int index, struct host_cache *c, const struct host_topology *t,
		      bool *seen)
{
	static const char *const ints[] = { "level", "coherency_line_size", "number_of_sets", "ways_of_associativity" };
	uint32_t *dst[] = { &c->level, &c->line_size, &c->sets, &c->ways };
	char dir[512], path[600];
	struct stat st;
	long long v;

	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d/cache/index%d", sys, cpu, index);
	if (stat(dir, &st))
		return 1;
	snprintf(path, sizeof(path), "%s/level", dir);
	if (!read_long(path, 10, &v))
		return -1;
	c->level = (uint32_t)v;
	snprintf(path, sizeof(path), "%s/type", dir);
	c->type = read_line(path);
	snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
	c->map = read_line(path);
	if (!c->type || !c->map)
		return -1;
	for (uint32_t i = 0; i < t->nr_caches; i++)
		if (t->caches[i].level == c->level && !strcmp(t->caches[i].type, c->type) && !strcmp(t->caches[i].map, c->map)) {
			*seen = true;
			return 0;
		}
	for (int i = 1; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ints[i]);
		if (!read_long(path, 10, &v))
			return -1;
		*dst[i] = (uint32_t)v;
	}
	snprintf(path, sizeof(path), "%s/size", dir);
	return (c->size = read_line(path)) ? 0 : -1;
}

static void cache_free(struct host_cache *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

static bool cache_same(const struct host_cache *a, const struct host_cache *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets && a->ways == b->ways &&
	       !strcmp(a->type, b->type) && !strcmp(a->size, b->size) && !strcmp(a->map, b->map);
}

/* Every distinct cache of the possible CPUs, by level (stable: first seen first). */
static int caches(struct host_topology *t, const char *sys)
{
	char path[512];
	int nr_cpus;
	size_t cap = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", sys);
	nr_cpus = list_end(path);
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		for (int index = 0; index < MAX_CACHE_INDEX; index++) {
			struct host_cache c = { 0 };
			bool seen = false;
			int r = cache_read(sys, cpu, index, &c, t, &seen);
			uint32_t i;

			if (r) {
				cache_free(&c);
				if (r < 0)
					return 0;
				break;
			}
			for (i = 0; i < t->nr_caches && !seen && !cache_same(&c, &t->caches[i]); i++)
				;
			if (seen || i < t->nr_caches) {
				cache_free(&c);
				continue;
			}
			if (t->nr_caches == cap) {
				struct host_cache *grown = realloc(t->caches, (cap = 2 * cap + 8) * sizeof(*grown));

				if (!grown) {
					cache_free(&c);
					return -ENOMEM;
				}
				t->caches = grown;
			}
			t->caches[t->nr_caches++] = c;
		}
	for (uint32_t i = 1; i < t->nr_caches; i++)
		for (uint32_t j = i; j > 0 && t->caches[j - 1].level > t->caches[j].level; j--) {
			struct host_cache c = t->caches[j];

			t->caches[j] = t->caches[j - 1];
			t->caches[j - 1] = c;
		}
	t->has_cache = true;
	return 0;
}

/* The memoryN entries of a node's directory, as a bitmap of N. */
static int mem_node(const char *sys, struct host_mem_node *n)
{
	char path[512];
	unsigned int phys, max = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%u", sys, (unsigned int)n->node);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &phys) == 1 && phys > max)
			max = phys;
	n->nr_bits = (uint64_t)max + 1;
	if (!(n->bits = calloc((size_t)(n->nr_bits + 63) / 64, 8))) {
		closedir(d);
		return -ENOMEM;
	}
	rewinddir(d);
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &phys) == 1)
			n->bits[phys / 64] |= 1ULL << (phys % 64);
	closedir(d);
	return 0;
}

static int mem_node_cmp(const void *a, const void *b)
{
	const struct host_mem_node *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

static int mem_topology(struct host_topology *t, const char *sys)
{
	char path[512];
	long long bsize;
	unsigned int idx;
	struct dirent *e;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", sys);
	if (!read_long(path, 16, &bsize))
		return 0;
	snprintf(path, sizeof(path), "%s/devices/system/node", sys);
	if (!(d = opendir(path)))
		return 0;
	while (!err && (e = readdir(d))) {
		struct host_mem_node *grown;

		if (sscanf(e->d_name, "node%u", &idx) != 1)
			continue;
		if (!(grown = realloc(t->mem, (t->nr_mem + 1) * sizeof(*grown)))) {
			err = -ENOMEM;
			break;
		}
		t->mem = grown;
		t->mem[t->nr_mem] = (struct host_mem_node){ .node = idx };
		if (!(err = mem_node(sys, &t->mem[t->nr_mem])))
			t->nr_mem++;
	}
	closedir(d);
	if (err)
		return err == -ENOMEM ? err : 0;
	qsort(t->mem, t->nr_mem, sizeof(*t->mem), mem_node_cmp);
	t->mem_block_size = (uint64_t)bsize;
	t->has_mem = true;
	return 0;
}

/* A PMU's capabilities: each file of its caps/ directory, its first line. */
static int pmu_caps(const char *dir, struct host_pmu *p)
{
	char path[1024];
	struct dirent *e;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/caps", dir);
	if (!(d = opendir(path)))
		return 0;
	while (!err && (e = readdir(d))) {
		char file[1300], *value, **names, **values;

		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/caps/%s", dir, e->d_name);
		if (!(value = read_line(file)))
			continue;
		names = realloc(p->cap_names, (p->nr_caps + 1) * sizeof(*names));
		if (names)
			p->cap_names = names;
		values = realloc(p->cap_values, (p->nr_caps + 1) * sizeof(*values));
		if (values)
			p->cap_values = values;
		if (!names || !values || !(p->cap_names[p->nr_caps] = strdup(e->d_name))) {
			free(value);
			err = -ENOMEM;
			break;
		}
		p->cap_values[p->nr_caps++] = value;
	}
	closedir(d);
	return err;
}

void host_pmus_free(struct host_pmu *p, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		for (uint32_t k = 0; k < p[i].nr_caps; k++) {
			free(p[i].cap_names[k]);
			free(p[i].cap_values[k]);
		}
		free(p[i].cap_names);
		free(p[i].cap_values);
		free(p[i].name);
		free(p[i].hybrid_cpus);
	}
	free(p);
}

int host_pmus(const char *sys, struct host_pmu **pmus, uint32_t *nr)
{
	char path[512], dir[1024];
	struct host_pmu *v = NULL;
	struct dirent *e;
	long long type;
	int err = 0;
	DIR *d;

	*pmus = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", sys);
	if (!(d = opendir(path)))
		return 0;
	/* In the directory's order, as perf 6.1 lists them. */
	while (!err && (e = readdir(d))) {
		struct host_pmu *grown;

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", path, e->d_name);
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/type");
		if (!read_long(dir, 10, &type))
			continue;
		dir[strlen(dir) - 5] = 0;
		if (!(grown = realloc(v, (*nr + 1) * sizeof(*v)))) {
			err = -ENOMEM;
			break;
		}
		v = grown;
		v[*nr] = (struct host_pmu){ .type = (uint32_t)type, .name = strdup(e->d_name) };
		if (!v[*nr].name)
			err = -ENOMEM;
		else
			err = pmu_caps(dir, &v[*nr]);
		/* perf 6.1's hybrid PMUs: "cpu_" and a cpus file. */
		if (!err && !strncmp(e->d_name, "cpu_", 4)) {
			char cpus[1100];

			snprintf(cpus, sizeof(cpus), "%s/cpus", dir);
			v[*nr].hybrid_cpus = read_line(cpus);
		}
		(*nr)++;
	}
	closedir(d);
	if (err) {
		host_pmus_free(v, *nr);
		*nr = 0;
		return err;
	}
	*pmus = v;
	return 0;
}

void host_topology_free(struct host_topology *t)
{
	for (uint32_t i = 0; i < t->nr_packages; i++)
		free(t->packages[i]);
	for (uint32_t i = 0; i < t->nr_dies; i++)
		free(t->dies[i]);
	for (uint32_t i = 0; i < t->nr_cores; i++)
		free(t->cores[i]);
	for (uint32_t i = 0; i < t->nr_numa; i++)
		free(t->numa[i].cpus);
	for (uint32_t i = 0; i < t->nr_caches; i++)
		cache_free(&t->caches[i]);
	for (uint64_t i = 0; i < t->nr_mem; i++)
		free(t->mem[i].bits);
	free(t->packages);
	free(t->dies);
	free(t->cores);
	free(t->cpus);
	free(t->numa);
	free(t->caches);
	free(t->mem);
	host_pmus_free(t->pmus, t->nr_pmus);
	memset(t, 0, sizeof(*t));
}

int host_topology_read(struct host_topology *t, const char *sys)
{
	int err;

	memset(t, 0, sizeof(*t));
	if ((err = cpu_topology(t, sys)) || (err = numa_topology(t, sys)) || (err = caches(t, sys)) ||
	    (err = mem_topology(t, sys)) || (err = host_pmus(sys, &t->pmus, &t->nr_pmus)) < 0) {
		host_topology_free(t);
		return err;
	}
	return 0;
}
