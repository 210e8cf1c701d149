#!/usr/bin/env bash
# Installs what Rankscope needs to build and test on Debian 12, from Debian's
# own packages. Safe to run again; uses sudo only when not already root.
# --checked adds clang and its sanitizer and libFuzzer runtimes, for
# tests/sanitize.sh; --mpi adds Open MPI, for -DRANKSCOPE_MPI=ON
# (tests/mpi/run.sh).
set -euo pipefail
packages=(
  cmake g++ make pkg-config dpkg-dev file desktop-file-utils appstream libxml2-utils
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev fonts-dejavu-core
  libsqlite3-dev zlib1g-dev libsimdjson-dev libxxhash-dev
  clang-format-14
)
if [ "${1:-}" = "--checked" ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi
if [ "${1:-}" = "--mpi" ]; then
  packages+=(libopenmpi-dev openmpi-bin)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
