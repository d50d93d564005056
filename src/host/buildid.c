// SPDX-License-Identifier: GPL-2.0-only
/* GNU build ids: of ELF files, of the running kernel, of the vdso. */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "host.h"

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The one parser of notes: {u32 namesz, descsz, type; name; desc}, name and desc padded to align. */
size_t host_notes_build_id(const void *notes, size_t len, size_t align, unsigned char id[HOST_BUILD_ID_MAX])
{
	const unsigned char *p = notes;
	const size_t head = 3 * sizeof(uint32_t);

	if (align != 8)
		align = 4;
	while (len >= head) {
		uint32_t namesz = u32_at(p), descsz = u32_at(p + 4), type = u32_at(p + 8);
		size_t nlen = (namesz + align - 1) & ~(align - 1), dlen = (descsz + align - 1) & ~(align - 1);

		if (nlen > len - head || dlen > len - head - nlen)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + head, "GNU", 4) && descsz) {
			/* perf keeps the first 20 bytes of a longer id. */
			size_t n = descsz < HOST_BUILD_ID_MAX ? descsz : HOST_BUILD_ID_MAX;

			memcpy(id, p + head + nlen, n);
			return n;
		}
		p += head + nlen + dlen;
		len -= head + nlen + dlen;
	}
	return 0;
}

/* From the SHT_NOTE sections, as perf reads it (a vdso in memory has them too). */
size_t host_elf_build_id(void *elf, unsigned char id[HOST_BUILD_ID_MAX])
{
	Elf *e = elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t n;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		if ((n = host_notes_build_id(d->d_buf, d->d_size, sh.sh_addralign, id)))
			return n;
	}
	return 0;
}

size_t host_file_build_id(const char *path, unsigned char id[HOST_BUILD_ID_MAX])
{
	int fd = host_open_regular(path);
	size_t n = 0;
	Elf *e;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		n = host_elf_build_id(e, id);
	elf_end(e);
	close(fd);
	return n;
}

size_t host_kernel_build_id(unsigned char id[HOST_BUILD_ID_MAX])
{
	char buf[4096];
	int n = host_read_small_file("/sys/kernel/notes", buf, sizeof(buf));

	/* The kernel's notes are 4-byte aligned. */
	return n > 0 ? host_notes_build_id(buf, (size_t)n, 4, id) : 0;
}

size_t host_vdso_build_id(unsigned char id[HOST_BUILD_ID_MAX])
{
	const void *img;
	size_t len, n = 0;
	Elf *e;

	if (host_vdso(&img, &len) || elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	e = elf_memory((char *)(uintptr_t)img, len);
	if (e && elf_kind(e) == ELF_K_ELF)
		n = host_elf_build_id(e, id);
	elf_end(e);
	return n;
}

void host_build_id_hex(const unsigned char *id, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[2 * n] = 0;
}
