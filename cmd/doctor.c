// SPDX-License-Identifier: GPL-2.0-only
/* mperf doctor: host_facts() -> what they mean for mperf, as text or JSON -> 0 if record can work. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../src/host/host.h"
#include "../src/lib/json.h"
#include "cmd.h"
#include "options.h"

#define DOCTOR_JSON_VERSION 1
#define EXIT_DOCTOR 3	/* record cannot work here: as a failed --check */

static const char doctor_usage[] =
	"usage: mperf doctor [--json]\n"
	"   or: mperf doctor -h\n"
	"\n"
	"    What profiling may do on this machine and for this user: perf_event_paranoid and\n"
	"    what it forbids, capabilities, a hardware PMU, tracefs, the perf sysctls, a VM or\n"
	"    a container.  Exits 0 when mperf record can work, 3 when it cannot.\n"
	"\n";

static const struct cmd_opt doctor_opts[] = {
	{ 'J', 0, "json", CMD_ARG_NONE, NULL, "one JSON document (schema in mperf-doctor(1))" },
	{ 'h', 'h', "help", CMD_ARG_NONE, NULL, "show this help" },
};

static int doctor_option(void *ctx, const struct cmd_opt *opt, char *arg)
{
	(void)arg;
	if (opt->id == 'J')
		*(bool *)ctx = true;
	return 0;
}

static const struct cmd_options doctor_options = {
	.cmd = "doctor",
	.usage = doctor_usage,
	.help_col = 26,
	.opts = doctor_opts,
	.nr_opts = sizeof(doctor_opts) / sizeof(doctor_opts[0]),
	.set = doctor_option,
};

/* What perf_event_paranoid forbids a user without CAP_PERFMON (the kernel's perf-security text). */
static const char *const forbids[] = {
	"raw tracepoint data and ftrace function events",	/* >= 0 */
	"events of every task on a CPU (-a, -C)",		/* >= 1 */
	"kernel profiling (events fall back to user space, NAME:u)",	/* >= 2 */
	"every perf_event_open (a distribution's level 3)",	/* >= 3 */
};

static int nr_forbidden(const struct host_facts *f)
{
	if (f->paranoid == HOST_UNKNOWN || f->paranoid < 0)
		return 0;
	return f->paranoid >= 3 ? 4 : f->paranoid + 1;
}

static bool privileged(const struct host_facts *f)
{
	return f->caps_known && (f->cap_perfmon || f->cap_sys_admin);
}

/* Whether there is a hardware PMU: 1, 0, or -1 when the probe could not tell (refused). */
static int hw_pmu(const struct host_facts *f)
{
	if (f->cycles.ok)
		return 1;
	return f->cycles.err == ENOENT || f->cycles.err == ENODEV || f->cycles.err == EOPNOTSUPP ||
	       f->cycles.err == ENXIO ? 0 : -1;
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void probe_text(const char *what, struct host_probe p)
{
	if (p.ok)
		printf("%s: yes\n", what);
	else
		printf("%s: no (%s)\n", what, strerror(p.err));
}

static void print_text(const struct host_facts *f)
{
	int n = nr_forbidden(f);

	if (f->paranoid == HOST_UNKNOWN)
		printf("kernel.perf_event_paranoid: unknown (no /proc/sys/kernel/perf_event_paranoid)\n");
	else if (!n)
		printf("kernel.perf_event_paranoid = %d: no restriction\n", f->paranoid);
	else
		printf("kernel.perf_event_paranoid = %d: forbids users without CAP_PERFMON:\n", f->paranoid);
	for (int i = 0; i < n; i++)
		printf("    %s\n", forbids[i]);
	if (f->caps_known)
		printf("capabilities: euid %u, CAP_PERFMON %s, CAP_SYS_ADMIN %s%s\n", f->euid, yes_no(f->cap_perfmon),
		       yes_no(f->cap_sys_admin),
		       privileged(f) ? ": perf_event_paranoid does not apply" : n ? ": the limits above apply" : "");
	else
		printf("capabilities: euid %u, unknown (no CapEff in /proc/self/status)\n", f->euid);
	switch (hw_pmu(f)) {
	case 1:
		printf("hardware PMU: yes (cycles opens)\n");
		break;
	case 0:
		printf("hardware PMU: no (cycles: %s): cycles falls back to cpu-clock\n", strerror(f->cycles.err));
		break;
	default:
		printf("hardware PMU: unknown (cycles: %s)\n", strerror(f->cycles.err));
		break;
	}
	probe_text("software events, user space", f->sw_user);
	probe_text("software events, kernel too", f->sw_kernel);
	probe_text("every task of a CPU (-a, -C)", f->cpu_wide);
	if (!f->tracefs)
		printf("tracefs: %s\n", f->tracefs_dir);
	else if (f->tracefs == -ENOENT)
		printf("tracefs: not mounted (no tracepoints: mount -t tracefs nodev /sys/kernel/tracing)\n");
	else
		printf("tracefs: not readable by this user (%s): no tracepoints\n", strerror(-f->tracefs));
	if (f->mlock_kb != HOST_UNKNOWN)
		printf("kernel.perf_event_mlock_kb = %d: buffer memory a user may lock beyond RLIMIT_MEMLOCK (-m)\n",
		       f->mlock_kb);
	if (f->max_sample_rate != HOST_UNKNOWN)
		printf("kernel.perf_event_max_sample_rate = %d: -F above it is lowered to it, faster events are throttled\n",
		       f->max_sample_rate);
	if (f->kptr_restrict != HOST_UNKNOWN)
		printf("kernel.kptr_restrict = %d\n", f->kptr_restrict);
	if (f->kallsyms == 1)
		printf("kernel addresses (/proc/kallsyms): shown: kernel samples resolve\n");
	else if (f->kallsyms == 0)
		printf("kernel addresses (/proc/kallsyms): hidden from this user (kptr_restrict, or perf_event_paranoid above 1 without CAP_SYSLOG): kernel samples do not resolve\n");
	else
		printf("kernel addresses (/proc/kallsyms): unreadable (%s)\n", strerror(-f->kallsyms));
	if (f->vm)
		printf("virtual machine: yes (%s%s)\n", f->hypervisor[0] ? "/sys/hypervisor/type: " : "cpuinfo hypervisor flag",
		       f->hypervisor);
	else
		printf("virtual machine: no sign of one\n");
	if (f->container)
		printf("container: yes (%s)\n", f->container_why);
	else
		printf("container: no sign of one\n");
	if (f->seccomp == HOST_UNKNOWN)
		printf("seccomp: unknown (no Seccomp in /proc/self/status)\n");
	else if (f->seccomp != 2)
		printf("seccomp: no filter\n");
	else
		printf("seccomp: a filter (a container's profile?)%s\n", f->denier == HOST_DENIER_SECCOMP ?
		       ", which refuses perf_event_open: mperf cannot open any event" : ", which lets perf_event_open through");
	if (f->denier == HOST_DENIER_OTHER)
		printf("perf_event_open: refused to user-space events%s (a security module: SELinux, AppArmor?)\n",
		       f->paranoid != HOST_UNKNOWN && f->paranoid >= 3 ? ", as perf_event_paranoid 3 does" :
		       ", which perf_event_paranoid allows");
	printf("mperf record can work: %s\n", f->sw_user.ok ? f->sw_kernel.ok ? "yes" : "yes, user space only" : "no");
}

static void json_int(const char *key, int v)
{
	if (v == HOST_UNKNOWN)
		printf(", \"%s\": null", key);
	else
		printf(", \"%s\": %d", key, v);
}

static void json_probe(const char *key, struct host_probe p)
{
	printf(", \"%s\": {\"ok\": %s, \"error\": ", key, p.ok ? "true" : "false");
	if (p.ok)
		printf("null}");
	else
	{
		json_fputs(stdout, strerror(p.err));
		putchar('}');
	}
}

static void print_json(const struct host_facts *f)
{
	int n = nr_forbidden(f), pmu = hw_pmu(f);

	putchar('{');
	json_fhead(stdout, "doctor", DOCTOR_JSON_VERSION);
	json_int("perf-event-paranoid", f->paranoid);
	printf(", \"paranoid-forbids\": [");
	for (int i = 0; i < n; i++) {
		printf("%s", i ? ", " : "");
		json_fputs(stdout, forbids[i]);
	}
	printf("], \"euid\": %u", f->euid);
	if (f->caps_known)
		printf(", \"cap-perfmon\": %s, \"cap-sys-admin\": %s", f->cap_perfmon ? "true" : "false",
		       f->cap_sys_admin ? "true" : "false");
	else
		printf(", \"cap-perfmon\": null, \"cap-sys-admin\": null");
	printf(", \"privileged\": %s", privileged(f) ? "true" : "false");
	printf(", \"hardware-pmu\": %s", pmu < 0 ? "null" : pmu ? "true" : "false");
	json_probe("cycles", f->cycles);
	json_probe("software-user", f->sw_user);
	json_probe("software-kernel", f->sw_kernel);
	json_probe("cpu-wide", f->cpu_wide);
	printf(", \"tracefs\": ");
	if (!f->tracefs)
		json_fputs(stdout, f->tracefs_dir);
	else
		printf("null");
	printf(", \"kallsyms-addresses\": %s", f->kallsyms == 1 ? "true" : f->kallsyms == 0 ? "false" : "null");
	json_int("perf-event-mlock-kb", f->mlock_kb);
	json_int("perf-event-max-sample-rate", f->max_sample_rate);
	json_int("kptr-restrict", f->kptr_restrict);
	printf(", \"vm\": %s, \"hypervisor\": ", f->vm ? "true" : "false");
	if (f->hypervisor[0])
		json_fputs(stdout, f->hypervisor);
	else
		printf("null");
	printf(", \"container\": %s, \"container-evidence\": ", f->container ? "true" : "false");
	if (f->container)
		json_fputs(stdout, f->container_why);
	else
		printf("null");
	json_int("seccomp", f->seccomp);
	printf(", \"denied-by\": %s", f->denier == HOST_DENIER_SECCOMP ? "\"seccomp\"" :
	       f->denier == HOST_DENIER_OTHER ? "\"other\"" : "null");
	printf(", \"record-works\": %s, \"record-kernel\": %s}\n", f->sw_user.ok ? "true" : "false",
	       f->sw_kernel.ok ? "true" : "false");
}

int cmd_doctor(int argc, char **argv)
{
	struct host_facts f;
	bool json = false;
	struct cmd_parse parse;
	int ret;

	if ((ret = cmd_options_parse(&parse, &doctor_options, argc, argv, &json)) != CMD_OPTS_OK)
		return ret;
	if (optind < argc)
		return cmd_usage_error("doctor", "unexpected argument '%s'", argv[optind]);
	host_facts(&f);
	if (json)
		print_json(&f);
	else
		print_text(&f);
	return f.sw_user.ok ? 0 : EXIT_DOCTOR;
}
