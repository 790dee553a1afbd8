/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * papcoll.h - the only public header of papcoll.
 *
 * papcoll is a library of MPI collective algorithms built for imbalanced
 * process arrival patterns.  It runs on top of any MPI-3 library (Open MPI,
 * MPICH) and under SimGrid SMPI.  Unmodified programs reach it through the
 * PMPI interposer libpapcoll_mpi (LD_PRELOAD); programs that want to choose
 * an algorithm per call use this API.
 *
 * All functions follow MPI error conventions: they return MPI_SUCCESS or an
 * MPI error class, after invoking the communicator's error handler (so
 * MPI_ERRORS_RETURN works as it does for MPI_Bcast).
 */
#ifndef PAPCOLL_H
#define PAPCOLL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "papcoll_version.h" /* PAPCOLL_VERSION_MAJOR, _MINOR, _PATCH, _STRING */

/* Version string of the library actually linked (PAPCOLL_VERSION_STRING
 * " (native)" or " (smpi)"). */
const char *papcoll_version(void);

/* ---- Broadcast ---------------------------------------------------------- */

/* Same semantics as MPI_Bcast.  The algorithm is chosen by PAPCOLL_BCAST
 * (a name, or "auto": PAPCOLL_TUNE rules, then the built-in rules). */
int papcoll_bcast(void *buf, int count, MPI_Datatype datatype, int root,
                  MPI_Comm comm);

/* As papcoll_bcast with the algorithm named explicitly ("auto" allowed).
 * An unknown name returns MPI_ERR_ARG.  All processes must pass the same
 * name. */
int papcoll_bcast_by_name(const char *algorithm, void *buf, int count,
                          MPI_Datatype datatype, int root, MPI_Comm comm);

/* Broadcast into node shared memory: NOT MPI semantics (Parsons 2015 §2.3.3,
 * "Shared Memory"; docs/copyout.md).  Broadcasts count elements of datatype
 * from the root's buf (read at the root only; other processes may pass
 * NULL) and sets *result, on every process, to a read-only pointer to the
 * message in memory shared by the processes of its node; nobody's buf
 * receives it.  No process copies the message out of shared memory: the
 * root copies it in once, every other node's leader receives it from the
 * network straight into its node's shared memory.
 * Only datatypes whose count elements are contiguous bytes (no gaps, e.g.
 * MPI_INT, MPI_BYTE, contiguous derived types) are accepted: others return
 * MPI_ERR_TYPE.  count 0: *result = NULL.
 * Read-only: writing through *result is undefined (the node's other
 * processes read the same bytes).
 * Valid until this process calls papcoll_bcast_shared on comm again (that
 * call first waits until every process of the node has entered it, so
 * nobody's previous result is overwritten while it is read), or until comm
 * is freed.  There is no explicit release.  Node barriers order the steps:
 * every process waits for its node's last arrival (not arrival-tolerant).
 * Collective over comm: same count x type size on every process. */
int papcoll_bcast_shared(const void *buf, int count, MPI_Datatype datatype,
                         int root, MPI_Comm comm, const void **result);

/* ---- Reductions ---------------------------------------------------------- */

/* Same semantics as MPI_Reduce (MPI_IN_PLACE at the root, any datatype and
 * op, user-defined ops commutative or not).  The algorithm is chosen by
 * PAPCOLL_REDUCE (a name or "auto").  A non-commutative op is applied in
 * rank order; algorithms that cannot do that are skipped by automatic
 * selection, and naming one fails with MPI_ERR_OP. */
int papcoll_reduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int papcoll_reduce_by_name(const char *algorithm, const void *sendbuf,
                           void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm);

/* Same semantics as MPI_Allreduce (MPI_IN_PLACE allowed); PAPCOLL_ALLREDUCE
 * chooses the algorithm. */
int papcoll_allreduce(const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int papcoll_allreduce_by_name(const char *algorithm, const void *sendbuf,
                              void *recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm);

/* Same semantics as MPI_Reduce_scatter and MPI_Reduce_scatter_block
 * (MPI_IN_PLACE allowed; any datatype and op, non-commutative ones in rank
 * order).  Both are the collective "reduce_scatter"; PAPCOLL_REDUCE_SCATTER
 * chooses. */
int papcoll_reduce_scatter(const void *sendbuf, void *recvbuf,
                           const int recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);
int papcoll_reduce_scatter_by_name(const char *algorithm, const void *sendbuf,
                                   void *recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm);
int papcoll_reduce_scatter_block(const void *sendbuf, void *recvbuf,
                                 int recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm);
int papcoll_reduce_scatter_block_by_name(const char *algorithm,
                                         const void *sendbuf, void *recvbuf,
                                         int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm);

/* ---- Gathers to everyone ------------------------------------------------ */

/* Same semantics as MPI_Allgather and MPI_Allgatherv (MPI_IN_PLACE allowed,
 * send and receive datatypes may differ as long as their type signatures
 * match, zero counts allowed in the v form).  Both are the collective
 * "allgather" (one algorithm list; PAPCOLL_ALLGATHER chooses). */
int papcoll_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm);
int papcoll_allgather_by_name(const char *algorithm, const void *sendbuf,
                              int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm);
int papcoll_allgatherv(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[],
                       MPI_Datatype recvtype, MPI_Comm comm);
int papcoll_allgatherv_by_name(const char *algorithm, const void *sendbuf,
                               int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[],
                               const int displs[], MPI_Datatype recvtype,
                               MPI_Comm comm);

/* ---- All-to-all, gather, scatter --------------------------------------- */

/* Same semantics as MPI_Alltoall(v,w), MPI_Gather(v) and MPI_Scatter(v)
 * (MPI_IN_PLACE where MPI allows it, send and receive datatypes with
 * matching signatures, zero counts in the v forms).  Each pair is one
 * collective ("alltoall", "gather", "scatter"); PAPCOLL_ALLTOALL,
 * PAPCOLL_GATHER and PAPCOLL_SCATTER choose. */
int papcoll_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm);
int papcoll_alltoall_by_name(const char *algorithm, const void *sendbuf,
                             int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm);
int papcoll_alltoallv(const void *sendbuf, const int sendcounts[],
                      const int sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm);
int papcoll_alltoallv_by_name(const char *algorithm, const void *sendbuf,
                              const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm);
/* MPI_Alltoallw: sdispls/rdispls in bytes, one datatype per peer; the
 * third form of "alltoall" (every alltoall algorithm serves it). */
int papcoll_alltoallw(const void *sendbuf, const int sendcounts[],
                      const int sdispls[], const MPI_Datatype sendtypes[],
                      void *recvbuf, const int recvcounts[],
                      const int rdispls[], const MPI_Datatype recvtypes[],
                      MPI_Comm comm);
int papcoll_alltoallw_by_name(const char *algorithm, const void *sendbuf,
                              const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm);
int papcoll_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm);
int papcoll_gather_by_name(const char *algorithm, const void *sendbuf,
                           int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm);
int papcoll_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm);
int papcoll_gatherv_by_name(const char *algorithm, const void *sendbuf,
                            int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int displs[], MPI_Datatype recvtype,
                            int root, MPI_Comm comm);
int papcoll_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm comm);
int papcoll_scatter_by_name(const char *algorithm, const void *sendbuf,
                            int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm);
int papcoll_scatterv(const void *sendbuf, const int sendcounts[],
                     const int displs[], MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm);
int papcoll_scatterv_by_name(const char *algorithm, const void *sendbuf,
                             const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm);

/* ---- Barrier ------------------------------------------------------------ */

/* Same semantics as MPI_Barrier: returns once every process of comm has
 * entered the call.  The algorithm is chosen by PAPCOLL_BARRIER (a name, or
 * "auto"); papcoll_barrier_by_name names it ("auto" allowed; an unknown
 * name returns MPI_ERR_ARG; all processes must pass the same name).  An
 * intercommunicator gets the MPI library's own MPI_Barrier. */
int papcoll_barrier(MPI_Comm comm);
int papcoll_barrier_by_name(const char *algorithm, MPI_Comm comm);

/* ---- Nonblocking collectives ------------------------------------------ */

/* Same semantics as MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce and
 * MPI_Iallreduce.  *request is a real MPI request (a generalized request)
 * that the program completes with MPI_Wait / MPI_Test and their any, some
 * and all forms, beside its own requests; papcoll's schedule advances inside
 * those calls when they are the interposer's (libpapcoll_mpi), or when the
 * program calls papcoll_nbc_progress().  PAPCOLL_IBARRIER, PAPCOLL_IBCAST,
 * PAPCOLL_IREDUCE and PAPCOLL_IALLREDUCE choose (native, the MPI library's
 * own, is always one); the _by_name forms name it ("auto" allowed, NULL =
 * the environment's; an unknown name returns MPI_ERR_ARG).  Under SimGrid
 * SMPI (no generalized requests) *request is a receive that papcoll
 * completes: call papcoll_nbc_progress() between MPI_Test calls.  MPI lets
 * a program free a datatype or op while a collective uses it; with the
 * interposer papcoll keeps it until the request ends (its MPI_Type_free
 * and MPI_Op_free), but a program that calls these functions without it
 * must free them only once the request is complete (or freed).
 * docs/nonblocking.md. */
int papcoll_ibarrier(MPI_Comm comm, MPI_Request *request);
int papcoll_ibarrier_by_name(const char *algorithm, MPI_Comm comm, MPI_Request *request);
int papcoll_ibcast(void *buf, int count, MPI_Datatype datatype, int root,
                   MPI_Comm comm, MPI_Request *request);
int papcoll_ibcast_by_name(const char *algorithm, void *buf, int count,
                           MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request *request);
int papcoll_ireduce(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                    MPI_Request *request);
int papcoll_ireduce_by_name(const char *algorithm, const void *sendbuf,
                            void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm,
                            MPI_Request *request);
int papcoll_iallreduce(const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Request *request);
int papcoll_iallreduce_by_name(const char *algorithm, const void *sendbuf,
                               void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request);
/* Same semantics as MPI_Iallgather(v), MPI_Ialltoall(v,w), MPI_Igather(v),
 * MPI_Iscatter(v), MPI_Ireduce_scatter and MPI_Ireduce_scatter_block
 * (MPI_IN_PLACE where MPI allows it; requests and progress as above).  Both
 * forms of a collective share PAPCOLL_IALLGATHER, PAPCOLL_IALLTOALL,
 * PAPCOLL_IGATHER, PAPCOLL_ISCATTER, PAPCOLL_IREDUCE_SCATTER; the _by_name
 * forms name the algorithm (as above).  Intercommunicators get the MPI
 * library's own. */
int papcoll_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request *request);
int papcoll_iallgather_by_name(const char *algorithm, const void *sendbuf,
                               int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request);
int papcoll_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int papcoll_iallgatherv_by_name(const char *algorithm, const void *sendbuf,
                                int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request);
int papcoll_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request);
int papcoll_ialltoall_by_name(const char *algorithm, const void *sendbuf,
                              int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request);
int papcoll_ialltoallv(const void *sendbuf, const int sendcounts[],
                       const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int papcoll_ialltoallv_by_name(const char *algorithm, const void *sendbuf,
                               const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request);
int papcoll_ialltoallw(const void *sendbuf, const int sendcounts[],
                       const int sdispls[], const MPI_Datatype sendtypes[],
                       void *recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_Request *request);
int papcoll_ialltoallw_by_name(const char *algorithm, const void *sendbuf,
                               const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request);
int papcoll_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request);
int papcoll_igather_by_name(const char *algorithm, const void *sendbuf,
                            int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *request);
int papcoll_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request);
int papcoll_igatherv_by_name(const char *algorithm, const void *sendbuf,
                             int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request);
int papcoll_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request *request);
int papcoll_iscatter_by_name(const char *algorithm, const void *sendbuf,
                             int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request);
int papcoll_iscatterv(const void *sendbuf, const int sendcounts[],
                      const int displs[], MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request *request);
int papcoll_iscatterv_by_name(const char *algorithm, const void *sendbuf,
                              const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request);
int papcoll_ireduce_scatter(const void *sendbuf, void *recvbuf,
                            const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request);
int papcoll_ireduce_scatter_by_name(const char *algorithm, const void *sendbuf,
                                    void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm, MPI_Request *request);
int papcoll_ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                                  int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Request *request);
int papcoll_ireduce_scatter_block_by_name(const char *algorithm,
                                          const void *sendbuf, void *recvbuf,
                                          int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm,
                                          MPI_Request *request);
/* Same semantics as MPI_Iscan and MPI_Iexscan (MPI_IN_PLACE, any op,
 * combined in rank order; rank 0's MPI_Iexscan buffer untouched): one
 * variable, PAPCOLL_ISCAN, for both; the _by_name forms name the algorithm
 * (native, recursive_doubling, linear).  Intercommunicators get the MPI
 * library's own. */
int papcoll_iscan(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Request *request);
int papcoll_iscan_by_name(const char *algorithm, const void *sendbuf,
                          void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request);
int papcoll_iexscan(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request);
int papcoll_iexscan_by_name(const char *algorithm, const void *sendbuf,
                            void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request);
/* Advances every active papcoll nonblocking collective as far as it goes
 * without waiting (what the interposed completion calls do first). */
void papcoll_nbc_progress(void);

/* ---- Persistent collectives (MPI-4) ------------------------------------ */

/* Same semantics as MPI-4's MPI_Barrier_init, MPI_Bcast_init,
 * MPI_Reduce_init and MPI_Allreduce_init: the algorithm is chosen once, as
 * for the nonblocking form (PAPCOLL_IBARRIER ... PAPCOLL_IALLREDUCE, or the
 * _by_name argument), and its schedule is built once; each MPI_Start /
 * MPI_Startall runs it again on the buffers given here; MPI_Wait* /
 * MPI_Test* complete a run and leave the request inactive; MPI_Request_free
 * of an inactive one frees it.  *request is a persistent request of the MPI
 * library that libpapcoll_mpi recognises: MPI_Start, the completion calls
 * and MPI_Request_free must be libpapcoll_mpi's (preloaded, or linked before
 * the MPI library).  `native` makes the MPI library's own persistent
 * collective (MPI_<Coll>_init, or Open MPI's MPIX_<Coll>_init; without
 * either, MPI_ERR_UNSUPPORTED_OPERATION).  info is passed to the library's
 * own only.  Not built under SimGrid SMPI.  docs/nonblocking.md,
 * "Persistent collectives". */
int papcoll_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_barrier_init_by_name(const char *algorithm, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request);
int papcoll_bcast_init(void *buf, int count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_bcast_init_by_name(const char *algorithm, void *buf, int count,
                               MPI_Datatype datatype, int root, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request);
int papcoll_reduce_init(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request);
int papcoll_reduce_init_by_name(const char *algorithm, const void *sendbuf,
                                void *recvbuf, int count, MPI_Datatype datatype,
                                MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request);
int papcoll_allreduce_init(const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request);
int papcoll_allreduce_init_by_name(const char *algorithm, const void *sendbuf,
                                   void *recvbuf, int count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request);
/* The block collectives, the same way (PAPCOLL_IALLGATHER, PAPCOLL_IALLTOALL,
 * PAPCOLL_IGATHER, PAPCOLL_ISCATTER, PAPCOLL_IREDUCE_SCATTER): MPI-4's
 * MPI_<Coll>_init.  The count and displacement arrays are read here. */
int papcoll_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_allgather_init_by_name(const char *algorithm, const void *sendbuf,
                                   int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request);
int papcoll_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request);
int papcoll_allgatherv_init_by_name(const char *algorithm, const void *sendbuf,
                                    int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request);
int papcoll_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_alltoall_init_by_name(const char *algorithm, const void *sendbuf,
                                  int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request);
int papcoll_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request);
int papcoll_alltoallv_init_by_name(const char *algorithm, const void *sendbuf,
                                   const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request);
int papcoll_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_gather_init_by_name(const char *algorithm, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request);
int papcoll_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request);
int papcoll_gatherv_init_by_name(const char *algorithm, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request);
int papcoll_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request);
int papcoll_scatter_init_by_name(const char *algorithm, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request);
int papcoll_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request);
int papcoll_scatterv_init_by_name(const char *algorithm, const void *sendbuf,
                                  const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                  MPI_Datatype recvtype, int root, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request);
int papcoll_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request);
int papcoll_reduce_scatter_init_by_name(const char *algorithm, const void *sendbuf,
                                        void *recvbuf, const int recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        MPI_Info info, MPI_Request *request);
int papcoll_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request);
int papcoll_reduce_scatter_block_init_by_name(const char *algorithm, const void *sendbuf,
                                              void *recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op,
                                              MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request);

/* ---- Prefix reductions ------------------------------------------------- */

/* Same semantics as MPI_Scan and MPI_Exscan (MPI_IN_PLACE allowed; any
 * datatype and op, always combined in rank order, so non-commutative ops
 * are right; exscan leaves rank 0's receive buffer untouched).  Both are the
 * collective "scan" (one algorithm list; PAPCOLL_SCAN chooses for both);
 * the _by_name forms name it ("auto" allowed; an unknown name returns
 * MPI_ERR_ARG; all processes must pass the same name).  MPI defines neither
 * on an intercommunicator: MPI_ERR_COMM, as the MPI libraries give. */
int papcoll_scan(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int papcoll_scan_by_name(const char *algorithm, const void *sendbuf,
                         void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm);
int papcoll_exscan(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int papcoll_exscan_by_name(const char *algorithm, const void *sendbuf,
                           void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);

/* ---- Algorithm catalogue ----------------------------------------------- */

/* Number of algorithms of a collective ("bcast", "reduce", "allreduce",
 * "allgather", "alltoall", "gather", "scatter", "reduce_scatter", "barrier",
 * "scan": scan and exscan; the nonblocking "ibarrier", "ibcast", "ireduce",
 * "iallreduce": names only, no description or needs);
 * -1 for an unknown collective. */
int papcoll_algorithm_count(const char *collective);
/* Name and one-line description of algorithm i (0-based), or NULL. */
const char *papcoll_algorithm_name(const char *collective, int i);
const char *papcoll_algorithm_description(const char *collective, int i);
/* What algorithm i asks of a call's op: PAPCOLL_NEEDS_* bits (0: any op the
 * collective allows), -1 for an unknown collective or index.  An algorithm
 * called by name on a call it cannot serve returns MPI_ERR_OP; auto skips
 * it. */
enum {
    PAPCOLL_NEEDS_COMMUTATIVE_OP = 1, /* combines in an order that is not the rank order */
    PAPCOLL_NEEDS_PREDEFINED_OP = 2   /* predefined ops only (MPI one-sided accumulate) */
};
int papcoll_algorithm_needs(const char *collective, int i);

/* Checks a selection-rules file (PAPCOLL_TUNE_FILE, docs/tuning.md): writes
 * every problem into report, one "FILE:LINE: message" per line (truncated
 * to len bytes; report may be NULL), and returns their number, 0 for a good
 * file (syntax, known collectives and algorithms).  Needs no MPI. */
int papcoll_check_tune_file(const char *path, char *report, int len);

/* Name of the algorithm the last papcoll call of this thread actually ran
 * (after any fallback), or "" before the first call. */
const char *papcoll_last_algorithm(void);

/* ---- Parameters -------------------------------------------------------- */

/* Parameters are read from the environment (PAPCOLL_*) once, at the first
 * call.  papcoll_set_param overrides one of them for the rest of the run
 * (same syntax as the environment; returns MPI_ERR_ARG for an unknown name
 * or a bad value).  Node layout parameters (PAPCOLL_PPN) apply to
 * communicators first used after the change. */
int papcoll_set_param(const char *name, const char *value);
int papcoll_param_count(void);
/* Name, type ("size", "int", "double", "string"), default and help text of
 * parameter i; returns MPI_ERR_ARG when i is out of range. */
int papcoll_param_info(int i, const char **name, const char **type,
                       const char **default_value, const char **help);
/* Former name of parameter i, still read from the environment and accepted
 * by papcoll_set_param (e.g. PAPCOLL_CP_SEGSIZE for PAPCOLL_BCAST_CP_SEGSIZE),
 * or NULL. */
const char *papcoll_param_alias(int i);
/* Current value of parameter `name` formatted as a string into buf. */
int papcoll_param_value(const char *name, char *buf, int buflen);

#ifdef __cplusplus
}
#endif

#endif /* PAPCOLL_H */
