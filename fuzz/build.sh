#!/bin/sh
# Builds the fuzz targets with clang, libFuzzer, ASan and UBSan into OUT
# (default fuzz/out): fuzz-armor, fuzz-decrypt, fuzz-inflate, fuzz-cert,
# fuzz-pkesk, fuzz-sniff, fuzz-clearsign, and
# gen-seeds (the seed generator, sanitized but without libFuzzer).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-fuzz/out}
CC=${FUZZ_CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-g -O1 -std=c11 -D_GNU_SOURCE -fno-omit-frame-pointer -Wall
-Wno-unused-parameter -Wno-unused-function -Icore"
PKG_CFLAGS=$(pkg-config --cflags libgcrypt gpg-error zlib libarchive)
LIBS="$(pkg-config --libs libgcrypt gpg-error zlib libarchive) -lbz2 -lpthread"

mkdir -p "$OUT/obj"
objs=""
for src in core/*.c; do
  obj="$OUT/obj/$(basename "$src" .c).o"
  # Rebuild when the source or any core header is newer than the object.
  if [ ! -f "$obj" ] || [ -n "$(find "$src" core/*.h fuzz/build.sh -newer "$obj" 2>/dev/null | head -n 1)" ]; then
    # shellcheck disable=SC2086
    $CC $CFLAGS $PKG_CFLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
  fi
  objs="$objs $obj"
done

for t in armor decrypt inflate cert pkesk sniff clearsign checksums; do
  # shellcheck disable=SC2086
  $CC $CFLAGS $PKG_CFLAGS $SAN -fsanitize=fuzzer -Ifuzz \
    "fuzz/fuzz-$t.c" $objs $LIBS -o "$OUT/fuzz-$t"
done
# shellcheck disable=SC2086
$CC $CFLAGS $PKG_CFLAGS $SAN fuzz/gen-seeds.c $objs $LIBS -o "$OUT/gen-seeds"
echo "fuzz: built fuzz-armor fuzz-decrypt fuzz-inflate fuzz-cert fuzz-pkesk fuzz-sniff fuzz-clearsign fuzz-checksums gen-seeds in $OUT"
