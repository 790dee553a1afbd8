/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sites.c - call sites and their resolution at the end of the run (see sites.h).
 *
 * Under SimGrid SMPI each rank runs a temporary copy of the program (SMPI's
 * dlopen privatization: /tmp/<program>_<pid>_<rank>.so, removed at the end
 * of the simulation, byte for byte the program); a site in that copy is
 * written with the program's own path, where addr2line finds the same
 * code at the same offset from the load bias.
 *
 * Each object holding a site is also written, once, to rank-R.objects with
 * its build identity (format.h), for the report to tell whether the file it
 * reads later is still the one that ran: the GNU build-id, read from the
 * loaded object's PT_NOTE segments (the NT_GNU_BUILD_ID note the linker's
 * --build-id writes), or else the file's size and modification time.  A
 * rank's temporary copy under SMPI holds the program's bytes, build-id
 * included; its size and time are taken from the program itself.
 */
#define _GNU_SOURCE
#include "sites.h"
#include "u64map.h"
#ifdef PAPCOLL_SMPI
#include "run.h"
#endif

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pt_u64map_t sites;

int pt_sites_add(uint64_t address)
{
    return pt_u64map_slot(&sites, address ? address : 1) ? 0 : -1;
}

enum { BUILD_ID_MAX = 64 }; /* bytes: GNU build-ids are 20 (sha1), 16 (md5/uuid) or up to 64 */

typedef struct {
    uintptr_t address;
    uintptr_t bias;
    const char *name;
    int found;
    char build_id[2 * BUILD_ID_MAX + 1]; /* hex, "" if the object has none */
} object_query_t;

static size_t note_align(size_t n, size_t align)
{
    return (n + align - 1) & ~(align - 1);
}

/* The object's GNU build-id, hex, into hex (of 2 x BUILD_ID_MAX + 1 chars): 1, or 0 if it has none. */
static int read_build_id(const struct dl_phdr_info *info, char *hex)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        size_t align = ph->p_align == 8 ? 8 : 4; /* notes of an 8-aligned segment are 8-aligned (gABI) */
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        size_t left = ph->p_memsz;
        while (left >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)(const void *)p;
            size_t desc_at = sizeof *note + note_align(note->n_namesz, align);
            size_t next = desc_at + note_align(note->n_descsz, align);
            if (desc_at > left || next > left) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && !memcmp(p + sizeof *note, "GNU", 4) &&
                note->n_descsz > 0 && note->n_descsz <= BUILD_ID_MAX) {
                for (size_t k = 0; k < note->n_descsz; k++) sprintf(hex + 2 * k, "%02x", p[desc_at + k]);
                return 1;
            }
            p += next;
            left -= next;
        }
    }
    hex[0] = '\0';
    return 0;
}

/* dl_iterate_phdr callback: is the address inside one of this object's loaded segments? */
static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    object_query_t *q = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && q->address >= start && q->address < start + ph->p_memsz) {
            q->bias = info->dlpi_addr;
            q->name = info->dlpi_name;
            q->found = 1;
            read_build_id(info, q->build_id);
            return 1;
        }
    }
    return 0;
}

/* Writes the object's line to out once: `written` holds the load biases of
 * the objects already written (one bias per loaded object).  0, or -1 when
 * out of memory. */
static int write_object(FILE *out, pt_u64map_t *written, uint64_t bias, const char *object, const char *build_id)
{
    uint64_t *done = pt_u64map_slot(written, bias ? bias : 1);
    if (!done) return -1;
    if (*done) return 0;
    *done = 1;
    struct stat st;
    if (build_id[0])
        fprintf(out, "build-id:%s %s\n", build_id, object);
    else if (!stat(object, &st))
        fprintf(out, "stat:%lld:%lld %s\n", (long long)st.st_size,
                (long long)st.st_mtim.tv_sec * 1000000000LL + (long long)st.st_mtim.tv_nsec, object);
    else
        fprintf(out, "- %s\n", object);
    return 0;
}

int pt_sites_write(const char *sites_path, const char *objects_path)
{
    FILE *f = fopen(sites_path, "w");
    if (!f) return -1;
    FILE *objects = fopen(objects_path, "w");
    if (!objects) {
        fclose(f);
        return -1;
    }
    int rc = 0;
    pt_u64map_t written = {0};
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
#ifdef PAPCOLL_SMPI
    Dl_info copy; /* the object holding the tracer: this rank's copy of the program */
    const char *copy_name = dladdr((void *)pt_sites_write, &copy) && copy.dli_fname ? copy.dli_fname : NULL;
#endif
    for (size_t i = 0; i < sites.capacity; i++) {
        if (!sites.keys[i]) continue;
        object_query_t q = {.address = (uintptr_t)sites.keys[i]};
        dl_iterate_phdr(find_object, &q);
        Dl_info info;
        const char *symbol = "-";
        if (dladdr((void *)q.address, &info) && info.dli_sname && info.dli_sname[0]) symbol = info.dli_sname;
        /* The main program is the object without a name. */
        const char *object = q.found ? (q.name && q.name[0] ? q.name : self) : "?";
#ifdef PAPCOLL_SMPI
        if (copy_name && !strcmp(object, copy_name)) object = pt_run_program_path();
#endif
        fprintf(f, "%#llx %#llx %s %s\n", (unsigned long long)q.address, (unsigned long long)q.bias, symbol, object);
        if (q.found && write_object(objects, &written, q.bias, object, q.build_id)) rc = -1;
    }
    pt_u64map_free(&sites);
    pt_u64map_free(&written);
    if (fclose(objects)) rc = -1;
    if (fclose(f)) rc = -1;
    return rc;
}
