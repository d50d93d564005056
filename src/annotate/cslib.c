// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcapstone, loaded with dlopen(3) by the first cs_open(), not linked:
 * the library carries some 77,000 relative relocations, which the dynamic
 * loader applied (and its 1.8 MB of data paged in) at every start of
 * every command, record -- true's included, while only annotate (and
 * top's a) disassembles.  The functions disasm.c and disasm-att.c call
 * are defined here under capstone's own names, each calling the
 * library's: their callers stay as capstone documents them.  The soname
 * is the one of the headers mperf was built with (libcapstone.so.
 * CS_API_MAJOR), so the structures the library fills are the ones the
 * callers read.  cslib_missing(): the library could not be loaded.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <capstone/capstone.h>
#include "cslib.h"

#define CS_STR2(x) #x
#define CS_STR(x) CS_STR2(x)
#define CS_SONAME "libcapstone.so." CS_STR(CS_API_MAJOR)

static struct {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*close)(csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	void (*free)(cs_insn *insn, size_t count);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address, cs_insn *insn);
	const char *(*reg_name)(csh handle, unsigned int reg_id);
	bool (*insn_group)(csh handle, const cs_insn *insn, unsigned int group_id);
} cs;
static bool cs_ok;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static bool cs_sym(void *h, void *fn, const char *name)
{
	void *p = dlsym(h, name);

	*(void **)fn = p;	/* POSIX's way to keep a function pointer dlsym found */
	return p != NULL;
}

static void cs_load(void)
{
	void *h = dlopen(CS_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	cs_ok = cs_sym(h, &cs.open, "cs_open") && cs_sym(h, &cs.close, "cs_close") &&
		cs_sym(h, &cs.option, "cs_option") && cs_sym(h, &cs.malloc, "cs_malloc") &&
		cs_sym(h, &cs.free, "cs_free") && cs_sym(h, &cs.disasm_iter, "cs_disasm_iter") &&
		cs_sym(h, &cs.reg_name, "cs_reg_name") && cs_sym(h, &cs.insn_group, "cs_insn_group");
	if (!cs_ok)
		dlclose(h);
}

bool cslib_missing(void)
{
	pthread_once(&cs_once, cs_load);
	return !cs_ok;
}

/* The first call of all: every other one takes what it made (a handle, an instruction). */
cs_err cs_open(cs_arch arch, cs_mode mode, csh *handle)
{
	if (cslib_missing())
		return CS_ERR_HANDLE;
	return cs.open(arch, mode, handle);
}

cs_err cs_close(csh *handle)
{
	return cs.close(handle);
}

cs_err cs_option(csh handle, cs_opt_type type, size_t value)
{
	return cs.option(handle, type, value);
}

cs_insn *cs_malloc(csh handle)
{
	return cs.malloc(handle);
}

void cs_free(cs_insn *insn, size_t count)
{
	cs.free(insn, count);
}

bool cs_disasm_iter(csh handle, const uint8_t **code, size_t *size, uint64_t *address, cs_insn *insn)
{
	return cs.disasm_iter(handle, code, size, address, insn);
}

const char *cs_reg_name(csh handle, unsigned int reg_id)
{
	return cs.reg_name(handle, reg_id);
}

bool cs_insn_group(csh handle, const cs_insn *insn, unsigned int group_id)
{
	return cs.insn_group(handle, insn, group_id);
}
