/*
 * args.c - see args.h.
 */
#include "args.h"

#include <limits.h>

int pc_check_comm(MPI_Comm comm) { return comm == MPI_COMM_NULL ? MPI_ERR_COMM : MPI_SUCCESS; }

int pc_is_intercomm(MPI_Comm comm)
{
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    return inter;
}

/* A private MPI_COMM_SELF duplicate whose errors return, for probing. */
static MPI_Comm probe_comm(void)
{
    static MPI_Comm self = MPI_COMM_NULL;
    if (self == MPI_COMM_NULL) {
        PMPI_Comm_dup(MPI_COMM_SELF, &self);
        PMPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    }
    return self;
}

static int is_predefined(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    return combiner == MPI_COMBINER_NAMED;
}

/* MPI has no query for "committed"; MPI_Pack of zero elements performs the
 * same datatype checks as a send (MPI_ERR_TYPE when not committed).  Only
 * called for derived datatypes (predefined ones are always committed). */
static int check_committed(MPI_Datatype type)
{
    char out[1];
    int position = 0;
    int rc = PMPI_Pack(out, 0, type, out, (int)sizeof out, &position, probe_comm());
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int pc_check_args(const void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, pc_layout_t *layout)
{
    int size, type_size, rc;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
    if (count < 0) return MPI_ERR_COUNT;
    int predefined = is_predefined(type);
    if (!predefined && (rc = check_committed(type)) != MPI_SUCCESS) return rc;
    if (buf == MPI_IN_PLACE) return MPI_ERR_ARG;
    PMPI_Type_size(type, &type_size);
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    /* NULL is MPI_BOTTOM: legal only for datatypes with absolute addresses */
    if (buf == NULL && count > 0 && type_size > 0 && (predefined || true_lb == 0)) return MPI_ERR_BUFFER;
    PMPI_Comm_size(comm, &size);
    if (root < 0 || root >= size) return MPI_ERR_ROOT;
    layout->bytes = (size_t)type_size * (size_t)count;
    layout->true_lb = true_lb;
    layout->contiguous = layout->bytes == 0 ||
                         ((size_t)true_extent == (size_t)type_size && (count == 1 || extent == true_extent));
    return MPI_SUCCESS;
}

int pc_error(MPI_Comm comm, int rc)
{
    if (rc != MPI_SUCCESS) PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/* Calls PMPI_Pack/PMPI_Unpack on pieces of whole elements of at most
 * INT_MAX bytes, so messages above 2 GiB work. */
static int convert(int pack, char *buf, int count, MPI_Datatype type, char *packed, size_t bytes, MPI_Comm comm)
{
    int type_size;
    MPI_Aint lb, extent;
    PMPI_Type_size(type, &type_size);
    PMPI_Type_get_extent(type, &lb, &extent);
    if (type_size == 0 || bytes == 0) return MPI_SUCCESS;
    int per_piece = INT_MAX / type_size;
    if (per_piece < 1) return MPI_ERR_COUNT;
    for (int done = 0; done < count;) {
        int n = count - done < per_piece ? count - done : per_piece;
        int position = 0, rc;
        char *elements = buf + (MPI_Aint)done * extent, *bytes_at = packed + (size_t)done * (size_t)type_size;
        int piece = n * type_size;
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
