/* SPDX-License-Identifier: BSD-3-Clause */
/* A program built against an installed papcoll (find_package or pkg-config). */
#include <papcoll.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int v = 7, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) v = 0;
    int rc = papcoll_bcast_by_name("binomial", &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int ok = rc == MPI_SUCCESS && v == 7 && !strcmp(papcoll_last_algorithm(), "binomial");
    printf("consumer: papcoll %s %s\n", papcoll_version(), ok ? "OK" : "FAIL");
    MPI_Finalize();
    return !ok;
}
