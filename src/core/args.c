/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.c - see args.h.
 */
#include "core/args.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/type_info.h"

#include <limits.h>

int pc_check_comm(MPI_Comm comm) { return comm == MPI_COMM_NULL ? MPI_ERR_COMM : MPI_SUCCESS; }

int pc_is_intercomm(MPI_Comm comm)
{
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    return inter;
}

MPI_Comm pc_self_comm(void)
{
    static MPI_Comm self = MPI_COMM_NULL;
    pc_lock();
    if (self == MPI_COMM_NULL) {
        PMPI_Comm_dup(MPI_COMM_SELF, &self);
        PMPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    }
    pc_unlock();
    return self;
}

static int is_predefined(MPI_Datatype type)
{
    pc_type_info_t scratch;
    return pc_type_info(type, &scratch)->named;
}

/* MPI has no query for "committed"; MPI_Pack of zero elements performs the
 * same datatype checks as a send (MPI_ERR_TYPE when not committed).  Only
 * called for derived datatypes (predefined ones are always committed). */
static int check_committed(MPI_Datatype type)
{
    char out[1];
    int position = 0;
    int rc = PMPI_Pack(out, 0, type, out, (int)sizeof out, &position, pc_self_comm());
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int pc_check_type_count(int count, MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
    if (count < 0) return MPI_ERR_COUNT;
    if (!is_predefined(type)) return check_committed(type);
    return MPI_SUCCESS;
}

int pc_check_buffer(const void *buf, int count, MPI_Datatype type)
{
    if (buf != NULL || count <= 0) return MPI_SUCCESS;
    pc_type_info_t scratch;
    const pc_type_info_t *t = pc_type_info(type, &scratch);
    return t->size > 0 && (t->named || t->true_lb == 0) ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

int pc_check_root(int root, MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    return root < 0 || root >= size ? MPI_ERR_ROOT : MPI_SUCCESS;
}

int pc_check_args(const void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rc = pc_check_type_count(count, type);
    if (rc == MPI_SUCCESS && buf == MPI_IN_PLACE) rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS) rc = pc_check_buffer(buf, count, type);
    if (rc == MPI_SUCCESS) rc = pc_check_root(root, comm);
    return rc;
}

/* The classes each library gives (checked call by call against it by
 * tests/test_errors_reduce.c): Open MPI's MPI_Reduce reports aliased or
 * misplaced MPI_IN_PLACE buffers as MPI_ERR_ARG, its MPI_Allreduce and MPICH
 * as MPI_ERR_BUFFER; both validate the (op, datatype) pair before the
 * datatype itself, so a null or uncommitted datatype is MPI_ERR_OP. */
#ifdef OPEN_MPI
#define PC_ERR_ALIAS_ROOTED MPI_ERR_ARG
#else
#define PC_ERR_ALIAS_ROOTED MPI_ERR_BUFFER
#endif

int pc_check_reduction_args(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                            int rooted, int root, MPI_Comm comm)
{
    int rank, rc = MPI_SUCCESS;
    PMPI_Comm_rank(comm, &rank);
    int receives = !rooted || rank == root;
    int alias = rooted ? PC_ERR_ALIAS_ROOTED : MPI_ERR_BUFFER;
    if (rooted && (rc = pc_check_root(root, comm)) != MPI_SUCCESS) return rc;
    if (receives && recvbuf == MPI_IN_PLACE) return alias;
    if (rooted && !receives && sendbuf == MPI_IN_PLACE) return alias;
    if (receives && sendbuf != MPI_IN_PLACE && sendbuf == recvbuf && sendbuf != NULL && count > 0) return alias;
    if (op == MPI_OP_NULL) return MPI_ERR_OP;
    if ((rc = pc_check_type_count(count, type)) != MPI_SUCCESS) return rc == MPI_ERR_TYPE ? MPI_ERR_OP : rc;
    if ((rc = pc_check_op_type(op, type)) != MPI_SUCCESS) return rc;
    if (sendbuf != MPI_IN_PLACE && (rc = pc_check_buffer(sendbuf, count, type)) != MPI_SUCCESS) return rc;
    if (receives && (rc = pc_check_buffer(recvbuf, count, type)) != MPI_SUCCESS) return rc;
    return MPI_SUCCESS;
}

/* Open MPI 4.1's MPI_Scan checks the op, then refuses MPI_IN_PLACE as recvbuf
 * with MPI_ERR_ARG; MPICH gives MPI_ERR_BUFFER, as papcoll does for what
 * Open MPI does not check at all (aliased buffers; MPI_Exscan's recvbuf). */
int pc_check_scan_args(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                       int exclusive, MPI_Comm comm)
{
#ifdef OPEN_MPI
    if (!exclusive && op != MPI_OP_NULL && recvbuf == MPI_IN_PLACE) return MPI_ERR_ARG;
#else
    (void)exclusive;
#endif
    return pc_check_reduction_args(sendbuf, recvbuf, count, type, op, 0, 0, comm);
}

int pc_op_is_predefined(MPI_Op op)
{
    const MPI_Op predefined[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,    MPI_PROD,   MPI_LAND,    MPI_BAND,  MPI_LOR,
                                 MPI_BOR,  MPI_LXOR, MPI_BXOR,   MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (op == predefined[i]) return 1;
    return 0;
}

const char *pc_class_name(int cls)
{
    const struct { int cls; const char *name; } names[] = {
        {MPI_SUCCESS, "MPI_SUCCESS"},       {MPI_ERR_OP, "MPI_ERR_OP"},     {MPI_ERR_TYPE, "MPI_ERR_TYPE"},
        {MPI_ERR_COUNT, "MPI_ERR_COUNT"},   {MPI_ERR_BUFFER, "MPI_ERR_BUFFER"}, {MPI_ERR_ROOT, "MPI_ERR_ROOT"},
        {MPI_ERR_COMM, "MPI_ERR_COMM"},     {MPI_ERR_ARG, "MPI_ERR_ARG"},   {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (cls == names[i].cls) return names[i].name;
    return "another error class";
}

int pc_refuse(MPI_Comm comm, const char *what, int rc)
{
    int cls = rc;
    PMPI_Error_class(rc, &cls);
    pc_log(PC_LOG_DEBUG, "%s: arguments refused: %s through the communicator's error handler", what,
           pc_class_name(cls));
    return pc_error(comm, rc);
}

int pc_error(MPI_Comm comm, int rc)
{
    if (rc == MPI_SUCCESS) return rc;
#ifdef PAPCOLL_SMPI
    /* SimGrid 3.32's Errhandler::call calls the handler's function pointer,
     * which is null for MPI_ERRORS_RETURN: return the code ourselves. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(comm, &eh);
    if (eh == MPI_ERRORS_RETURN) return rc;
#endif
    PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/* Calls PMPI_Pack/PMPI_Unpack on pieces of whole elements of at most
 * INT_MAX bytes, so messages above 2 GiB work.  An element larger than
 * INT_MAX bytes (a large-count call's folded type, pmpi/large_count.c) goes
 * one at a time through PMPI_Pack_c/PMPI_Unpack_c where the library has
 * MPI-4's large-count functions. */
static int convert(int pack, char *buf, int count, MPI_Datatype type, char *packed, size_t bytes, MPI_Comm comm)
{
    MPI_Count type_size;
    MPI_Aint lb, extent;
    PMPI_Type_size_x(type, &type_size);
    PMPI_Type_get_extent(type, &lb, &extent);
    if (type_size == 0 || bytes == 0) return MPI_SUCCESS;
    if (type_size > INT_MAX) {
#ifdef PAPCOLL_HAVE_MPI_LARGE_COUNT
        for (int i = 0; i < count; i++) {
            MPI_Count position = 0;
            char *element = buf + (MPI_Aint)i * extent, *bytes_at = packed + (size_t)i * (size_t)type_size;
            int rc = pack ? PMPI_Pack_c(element, 1, type, bytes_at, type_size, &position, comm)
                          : PMPI_Unpack_c(bytes_at, type_size, &position, element, 1, type, comm);
            if (rc != MPI_SUCCESS) return rc;
        }
        return MPI_SUCCESS;
#else
        return MPI_ERR_COUNT;
#endif
    }
    int per_piece = INT_MAX / (int)type_size;
    if (per_piece < 1) return MPI_ERR_COUNT;
    for (int done = 0; done < count;) {
        int n = count - done < per_piece ? count - done : per_piece;
        int position = 0, rc;
        char *elements = buf + (MPI_Aint)done * extent, *bytes_at = packed + (size_t)done * (size_t)type_size;
        int piece = n * (int)type_size;
        rc = pack ? PMPI_Pack(elements, n, type, bytes_at, piece, &position, comm)
                  : PMPI_Unpack(bytes_at, piece, &position, elements, n, type, comm);
        if (rc != MPI_SUCCESS) return rc;
        done += n;
    }
    return MPI_SUCCESS;
}

int pc_pack(const void *buf, int count, MPI_Datatype type, void *packed, size_t bytes, MPI_Comm comm)
{
    return convert(1, (char *)buf, count, type, packed, bytes, comm);
}

int pc_unpack(const void *packed, size_t bytes, void *buf, int count, MPI_Datatype type, MPI_Comm comm)
{
    return convert(0, buf, count, type, (char *)packed, bytes, comm);
}
