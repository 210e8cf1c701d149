#!/usr/bin/env bash
# Every C++ file of the project as clang-format 14 writes it (.clang-format):
# fails naming the files it would change. Without clang-format it says so
# and passes (packaging/install-deps.sh installs it).
set -uo pipefail
root="${1:-$(dirname "$0")/..}"
cd "$root" || exit 2
format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$format" ]; then
  echo "format: clang-format not found; not checked"
  exit 0
fi
mapfile -t files < <(find app widgets model tests -name '*.cpp' -o -name '*.h' | sort)
status=0
for f in "${files[@]}"; do
  if ! "$format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "format: $f is not as clang-format writes it (run: $format -i $f)"
    status=1
  fi
done
[ "$status" = 0 ] && echo "format: ${#files[@]} files as clang-format writes them"
exit $status
