/*
 * sites.c - call sites and their resolution at the end of the run (see sites.h).
 *
 * Under SimGrid SMPI each rank runs a temporary copy of the program (SMPI's
 * dlopen privatization: /tmp/<program>_<pid>_<rank>.so, removed at the end
 * of the simulation, byte for byte the program); a site in that copy is
 * written with the program's own path, where addr2line finds the same
 * code at the same offset from the load bias.
 */
#define _GNU_SOURCE
#include "sites.h"
#include "u64map.h"
#ifdef PAPCOLL_SMPI
#include "run.h"
#endif

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pt_u64map_t sites;

int pt_sites_add(uint64_t address)
{
    return pt_u64map_slot(&sites, address ? address : 1) ? 0 : -1;
}

typedef struct {
    uintptr_t address;
    uintptr_t bias;
    const char *name;
    int found;
} object_query_t;

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
            return 1;
        }
    }
    return 0;
}

int pt_sites_write(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
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
    }
    pt_u64map_free(&sites);
    return fclose(f) ? -1 : 0;
}
