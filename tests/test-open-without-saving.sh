#!/bin/sh
# test-open-without-saving.sh - `padlock --batch --open` (issue 38): a PDF
# and a PNG, encrypted by the real gpg, decrypted into memory and handed
# to a stub viewer registered as their default application through this
# test's XDG_DATA_HOME.  The viewer gets exactly the plaintext, through
# /proc/PID/fd/N; no file holding the plaintext's marker appears under
# HOME, XDG_CACHE_HOME, /tmp or /var/tmp; a tampered message and one
# over the limit (GSettings' open-memory-limit, through the keyfile
# backend) start no viewer and say why.  No session bus (tap.sh): the
# portal path is not taken (no xdg-desktop-portal on the test machines).
# A folder's message (Padlock's and gpgtar's .tar.gpg) lists its files,
# one line each, and opens none; tampered or damaged, it lists nothing.
# TAP.  Needs PADLOCK_APP, PADLOCK_STUB_VIEWER, PADLOCK_TEST_WORK_ROOT.
set -u

APP=${PADLOCK_APP:?}
VIEWER=${PADLOCK_STUB_VIEWER:?}
# Not under /tmp, which is scanned for the plaintext.
WORK=$(mktemp -d "${PADLOCK_TEST_WORK_ROOT:?}/open-without-saving-XXXXXX")
trap 'gpgconf --homedir "$WORK/gnupg" --kill all >/dev/null 2>&1; rm -rf "$WORK"' EXIT
trap 'exit 143' TERM INT HUP
. "$(dirname "$0")/tap.sh"
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME"
echo "${PADLOCK_BUILD_DIR:-}" > "$GNUPGHOME/padlock-test-build"  # tests/agents-left.sh
export HOME="$WORK/home"
export XDG_DATA_HOME="$HOME/.local/share"
export XDG_CONFIG_HOME="$HOME/.config"
export XDG_CACHE_HOME="$HOME/.cache"
# Only the stub is a viewer: the system's MIME database, not its apps.
export XDG_DATA_DIRS="$WORK/system"
mkdir -p "$XDG_DATA_DIRS" && ln -s /usr/share/mime "$XDG_DATA_DIRS/mime"
mkdir -p "$XDG_DATA_HOME/applications" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" \
         "$WORK/results" "$WORK/in"
cat > "$XDG_DATA_HOME/applications/padlock-stub-viewer.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=Stub Viewer
Exec=$VIEWER %f
MimeType=application/pdf;image/png;
DESKTOP
cat > "$XDG_DATA_HOME/applications/mimeapps.list" <<LIST
[Default Applications]
application/pdf=padlock-stub-viewer.desktop
image/png=padlock-stub-viewer.desktop
LIST
export PADLOCK_TEST_VIEWER_RESULT="$WORK/results/viewed"

MARKER="padlock-marker-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
# The plaintexts never touch the disk: made in a pipe, encrypted by gpg.
pdf () {
  printf '%%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%% %s\n' "$MARKER"
  head -c 3000 /dev/zero | tr '\0' 'x'
  printf '\n%%%%EOF\n'
}
png () {
  printf '\211PNG\r\n\032\n\000\000\000\015IHDR\000\000\000\001\000\000\000\001\010\006\000\000\000\037\025\304\211'
  printf '\000\000\000\040tEXt%s' "$MARKER"
}
encrypt () { # NAME: stdin to in/NAME.gpg, the literal packet named NAME
  gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase 'pass word' \
      --compress-algo none --set-filename "$1" --symmetric -o "in/$1.gpg"
}
# What the viewer was given, as its SHA-256; the plaintext's the same.
sum () { sha256sum | cut -d' ' -f1; }
planted () { # the files holding the marker, made since the test began
  for tree in "$HOME" "$XDG_CACHE_HOME" /tmp /var/tmp; do
    find "$tree" -xdev -type f -newer "$WORK/start" 2>/dev/null
  done | while read -r f; do grep -lF -- "$MARKER" "$f" 2>/dev/null; done
}

echo "1..42"
cd "$WORK" || exit 1
printf 'pass word\n' > pw
touch start
pdf | encrypt scan.pdf
png | encrypt photo.png

mkdir -p out
"$APP" --batch --open --passphrase-file=pw in/scan.pdf.gpg > stdout 2> stderr
check "--open exits 0" test $? -eq 0
check "its line names the viewer and says not saved" \
  grep -qx 'opened scan.pdf.gpg -> Stub Viewer (not saved)' stdout
check "the viewer got the PDF's octets, exactly" \
  test "$(pdf | sum)" = "$(sum < results/viewed)"
check "through /proc/PID/fd/N, not a path on disk" \
  grep -Eq '^(file://)?/proc/[0-9]+/fd/[0-9]+$' results/viewed.arg
check "nothing written beside the input" \
  test "$(ls in)" = "$(printf 'photo.png.gpg\nscan.pdf.gpg')"
mv results/viewed results/viewed.pdf && rm results/viewed.arg

"$APP" --batch --open --passphrase-file=pw in/photo.png.gpg > stdout 2> stderr
check "the PNG opens too" grep -qx 'opened photo.png.gpg -> Stub Viewer (not saved)' stdout
check "the viewer got the PNG's octets, exactly" \
  test "$(png | sum)" = "$(sum < results/viewed)"
mv results/viewed results/viewed.png && rm results/viewed.arg
# The viewer's copies (results/, outside the scanned trees) are the only
# files holding the marker.
check "no file with the plaintext under HOME, the cache, /tmp, /var/tmp" \
  test -z "$(planted)"
check "no file at all was made under HOME (the cache, recent files included)" \
  test -z "$(find "$HOME" -newer start ! -type d)"
check "... and the scan finds it where it is (the viewer's copy)" \
  sh -c "grep -qF -- '$MARKER' results/viewed.pdf"

# A viewer that leaves traces, as Evince 43.1 and Eye of GNOME 43.2 did:
# a thumbnail of what it showed, named by the URI's MD5, and the URI in
# recently-used.xbel.  Padlock removes both when it lets go of the memory
# file (before --open returns).
PADLOCK_TEST_VIEWER_TRACES=1 "$APP" --batch --open --passphrase-file=pw \
  in/scan.pdf.gpg > stdout 2> stderr
check "a viewer that leaves traces gets the PDF too" \
  test "$(pdf | sum)" = "$(sum < results/viewed)"
uri=$(sed -n 1p results/viewed.traced)
check "it made a thumbnail and a recent entry for $uri" \
  grep -Eq '^file:///proc/[0-9]+/fd/[0-9]+$' results/viewed.traced
check "Padlock removed the thumbnail" \
  test ! -e "$(sed -n 2p results/viewed.traced)"
check "... and the recent entry" \
  sh -c "! grep -qF '\"$uri\"' '$(sed -n 3p results/viewed.traced)'"
check "no file with the plaintext under HOME, the cache, /tmp, /var/tmp" \
  test -z "$(planted)"
rm -f results/viewed results/viewed.arg results/viewed.traced

# FILE's octet at OFFSET with every bit flipped: always a change (writing
# a constant octet leaves the file as it was when the octet already held
# it, 1 time in 256 for encrypted data).
flip_octet () { # FILE OFFSET
  o=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf '%03o' $((o ^ 255)))" |
    dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# One octet flipped in the middle of the encrypted data: the MDC fails,
# and no viewer starts.
size=$(stat -c %s in/scan.pdf.gpg)
cp in/scan.pdf.gpg tampered.pdf.gpg
flip_octet tampered.pdf.gpg $((size / 2))
"$APP" --batch --open --passphrase-file=pw tampered.pdf.gpg > stdout 2> stderr
check "a tampered message fails" test $? -eq 1
check "and says why" grep -q 'tampered.pdf.gpg: ' stderr
check "no viewer was started" test ! -e results/viewed -a ! -e results/viewed.arg

# Over the limit: 1,000 octets here, from the user's settings.
export GSETTINGS_BACKEND=keyfile
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
printf '[io/github/padlock/Padlock]\nopen-memory-limit=uint64 1000\n' \
  > "$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
"$APP" --batch --open --passphrase-file=pw in/scan.pdf.gpg > stdout 2> stderr
check "a file over the limit is refused" test $? -eq 1
check "saying to save it instead, with the limit, and no viewer" \
  sh -c 'grep -q "scan.pdf.gpg is too large to open without saving (limit 1.0.kB): save it instead" stderr && test ! -e results/viewed -a ! -e results/viewed.arg'

# Signed, not encrypted, by a key of the test's keyring: one octet of
# the data flipped, the signature is bad, and nothing is opened.
export GSETTINGS_BACKEND=memory       # the default limit again
gpg --batch --quiet --passphrase '' --quick-gen-key 'Alice <alice@example.org>' \
    ed25519 sign never 2>/dev/null
pdf | gpg --batch --quiet --compress-algo none --set-filename signed.pdf \
          --sign -o signed.pdf.gpg
"$APP" --batch --open signed.pdf.gpg > stdout 2> stderr
check "a signed PDF, checked, opens" \
  sh -c 'grep -q "^opened signed.pdf.gpg -> Stub Viewer (not saved)" stdout && test -e results/viewed'
rm -f results/viewed results/viewed.arg
size=$(stat -c %s signed.pdf.gpg)
flip_octet signed.pdf.gpg $((size / 2))
"$APP" --batch --open signed.pdf.gpg > stdout 2> stderr
check "its data altered, it fails saying the signature is bad" \
  grep -q 'signed.pdf.gpg has a bad signature: its data was altered. Nothing was opened.' stderr
check "and no viewer was started" test ! -e results/viewed -a ! -e results/viewed.arg

# Folders: a .tar.gpg made by Padlock and one made by gpgtar.  The folder
# is on the disk only to be archived (under WORK, which is not scanned),
# and gone before they are opened.
export GSETTINGS_BACKEND=memory
mkdir -p src/Scans/2024 folders
pdf > src/Scans/passport.pdf
png > src/Scans/2024/photo.png
touch -d @1600000000 src/Scans/passport.pdf src/Scans/2024/photo.png
pdf_size=$(pdf | wc -c)
png_size=$(png | wc -c)
"$APP" --batch --encrypt --passphrase-file=pw --output-dir=folders src/Scans \
  > stdout 2> stderr
check "Padlock makes Scans.tar.gpg" grep -qx 'encrypted Scans -> Scans.tar.gpg' stdout
gpgtar --gpg-args "--batch --no-tty --pinentry-mode=loopback --passphrase-file=$WORK/pw" \
  --encrypt --symmetric --output "$WORK/folders/Gpgtar.tar.gpg" --directory src Scans \
  2>/dev/null
check "gpgtar makes Gpgtar.tar.gpg" test -s folders/Gpgtar.tar.gpg
rm -rf src
for made in Scans Gpgtar; do
  "$APP" --batch --open --passphrase-file=pw "folders/$made.tar.gpg" > stdout 2> stderr
  check "$made.tar.gpg: --open exits 0" test $? -eq 0
  check "$made.tar.gpg: its files listed, not saved" \
    grep -qx "archive $made.tar.gpg -> 2 files (not saved)" stdout
  check "$made.tar.gpg: the PDF's line: name, size, date (UTC)" \
    grep -qx "file Scans/passport.pdf $pdf_size 2020-09-13T12:26:40Z" stdout
  check "$made.tar.gpg: the PNG's line" \
    grep -qx "file Scans/2024/photo.png $png_size 2020-09-13T12:26:40Z" stdout
  check "$made.tar.gpg: files only (no folder lines), and no viewer started" \
    sh -c 'test $(grep -c "^file " stdout) -eq 2 && test ! -e results/viewed -a ! -e results/viewed.arg'
done
check "nothing written beside the archives" \
  test "$(ls folders)" = "$(printf 'Gpgtar.tar.gpg\nScans.tar.gpg')"

# One octet flipped: the MDC fails, nothing is listed.
size=$(stat -c %s folders/Scans.tar.gpg)
cp folders/Scans.tar.gpg tampered.tar.gpg
flip_octet tampered.tar.gpg $((size / 2))
"$APP" --batch --open --passphrase-file=pw tampered.tar.gpg > stdout 2> stderr
status=$?
check "a tampered folder's message fails and lists nothing" \
  sh -c "test $status -eq 1 && test ! -s stdout && grep -q 'tampered.tar.gpg: ' stderr"
# Authentic, but the archive in it is cut inside the file's data:
# damaged, nothing listed.
mkdir cutsrc && pdf > cutsrc/a.pdf
tar -cf - cutsrc | head -c 1800 | encrypt cut.tar
rm -rf cutsrc
"$APP" --batch --open --passphrase-file=pw in/cut.tar.gpg > stdout 2> stderr
status=$?
check "a damaged archive fails" test $status -eq 1
check "saying so, listing nothing" \
  sh -c 'grep -q "cut.tar.gpg holds a damaged archive. Nothing was opened." stderr && test ! -s stdout'
# Names are the sender's word: a newline, a right-to-left override, a
# space, shown escaped as one word; "../" and "/" shown as stored, since
# nothing is unpacked.
python3 -c '
import io, sys, tarfile
t = tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.PAX_FORMAT)
for name in ["Evil/a\nb\u202etxt.pdf", "../up one", "/etc/abs"]:
    i = tarfile.TarInfo(name); i.size = 3; i.mtime = 0
    t.addfile(i, io.BytesIO(b"abc"))
t.close()' | encrypt names.tar
"$APP" --batch --open --passphrase-file=pw in/names.tar.gpg > stdout 2> stderr
check "hostile names listed, each one escaped word" \
  test "$(cat stdout)" = "$(printf '%s\n' \
    'archive names.tar.gpg -> 3 files (not saved)' \
    'file "Evil/a\nb\u202Etxt.pdf" 3 1970-01-01T00:00:00Z' \
    'file "../up\x20one" 3 1970-01-01T00:00:00Z' \
    'file /etc/abs 3 1970-01-01T00:00:00Z')"
check "and no file was made from them" \
  sh -c 'test ! -e "$WORK/up one" && test ! -e Evil && test ! -e in/Evil'
check "no file with the plaintext under HOME, the cache, /tmp, /var/tmp (folders too)" \
  test -z "$(planted)"

exit $failed
