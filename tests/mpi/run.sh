#!/usr/bin/env bash
# The MPI build, as CI runs it after the checked run: Debian's Open MPI,
# rankscope-cli configured with -DRANKSCOPE_MPI=ON in its own build folder,
# then tst_mpi.sh (mpirun with 1, 2 and 4 processes) and the 2.2 GiB gather
# (tst_mpi_gather) through CTest.
#
#   bash tests/mpi/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${MPI_BUILD_DIR:-build-mpi}"
bash packaging/install-deps.sh --mpi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRANKSCOPE_MPI=ON
cmake --build "$build" -j"$(nproc)" --target rankscope-cli rankscope-tracegen rankscope-gatherprobe
ctest --test-dir "$build" --output-on-failure -R '^tst_mpi(_gather)?$'
