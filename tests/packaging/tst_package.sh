#!/usr/bin/env bash
# Builds the .deb and .tar.gz with CPack from a finished build and checks
# what they hold; validates the desktop entry, AppStream metainfo and MIME
# types where the validators are installed.
#   tst_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cpack --config "$build/CPackConfig.cmake" -B "$out" -G "DEB;TGZ" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/*.deb)
tgz=$(ls "$out"/*.tar.gz)
echo "built: $(basename "$deb") $(basename "$tgz")"

expected=(
  usr/bin/rankscope
  usr/bin/rankscope-cli
  usr/share/applications/org.rankscope.Rankscope.desktop
  usr/share/metainfo/org.rankscope.Rankscope.metainfo.xml
  usr/share/mime/packages/rankscope.xml
  usr/share/icons/hicolor/scalable/apps/rankscope.svg
  usr/share/icons/hicolor/16x16/apps/rankscope.png
  usr/share/icons/hicolor/48x48/apps/rankscope.png
  usr/share/icons/hicolor/256x256/apps/rankscope.png
  usr/share/man/man1/rankscope.1
  usr/share/man/man1/rankscope-cli.1
  usr/share/rankscope/demo/ddp4_rank0.sqlite
  usr/share/rankscope/demo/ddp4_rank3.sqlite
)
deb_list=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||')
tgz_list=$(tar -tzf "$tgz" | sed 's|^[^/]*/||')
status=0
for path in "${expected[@]}"; do
  grep -qxF "$path" <<<"$deb_list" || { echo "missing from the .deb: $path"; status=1; }
  # The archive holds the same tree without /usr, under its top folder.
  grep -qxF "${path#usr/}" <<<"$tgz_list" || { echo "missing from the .tar.gz: ${path#usr/}"; status=1; }
done

# Dependencies come from the binaries' own links (dpkg-shlibdeps).
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libsqlite3-0; do
  grep -q "$lib" <<<"$depends" || { echo "Depends lacks $lib"; status=1; }
done

# The packaged binaries run: --version from the .deb's own files.
mkdir -p "$out/root" && dpkg-deb -x "$deb" "$out/root"
"$out/root/usr/bin/rankscope-cli" --version | grep -q "^rankscope-cli [0-9]" || { echo "packaged rankscope-cli --version failed"; status=1; }
QT_QPA_PLATFORM=offscreen "$out/root/usr/bin/rankscope" --version | grep -q "^Rankscope [0-9]" || { echo "packaged rankscope --version failed"; status=1; }

if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$source/packaging/linux/org.rankscope.Rankscope.desktop" || status=1
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$source/packaging/linux/org.rankscope.Rankscope.metainfo.xml" || status=1
fi
if command -v xmllint >/dev/null; then
  xmllint --noout "$source/packaging/linux/rankscope-mime.xml" || status=1
fi
exit $status
