#!/bin/sh
# A pinentry for the tests, speaking the pinentry Assuan protocol.  It is
# named as pinentry-program through a link in the test's GnuPG home, and
# finds its files beside that link:
#   pinentry.answer   the passphrase to give; "cancel" to cancel; "hang"
#                     to wait until pinentry.release exists (or the home
#                     is removed), then cancel;
#                     "hang:PASSPHRASE" to wait likewise, then give it;
#                     missing: cancel
#   pinentry.log      one line per GETPIN, the SETDESC texts, and the
#                     environment the agent gave this pinentry
dir=$(dirname "$0")
echo "ENV WAYLAND_DISPLAY=${WAYLAND_DISPLAY-} PINENTRY_USER_DATA=${PINENTRY_USER_DATA-}" \
  >> "$dir/pinentry.log"
cancel="ERR 83886179 Operation cancelled <Pinentry>"
echo "OK Pleased to meet you"
while IFS= read -r line; do
  case $line in
    GETPIN*)
      echo "GETPIN" >> "$dir/pinentry.log"
      answer=$(cat "$dir/pinentry.answer" 2>/dev/null)
      case $answer in
        ""|cancel) echo "$cancel" ;;
        hang)
          # Also once the home is gone: a test that released it and
          # ended at once must not leave this loop running for ever.
          while [ ! -e "$dir/pinentry.release" ] && [ -d "$dir" ]; do
            sleep 0.1
          done
          echo "$cancel" ;;
        hang:*)
          while [ ! -e "$dir/pinentry.release" ] && [ -d "$dir" ]; do
            sleep 0.1
          done
          printf 'D %s\nOK\n' "${answer#hang:}" ;;
        *) printf 'D %s\nOK\n' "$answer" ;;
      esac ;;
    SETDESC*) echo "$line" >> "$dir/pinentry.log"; echo "OK" ;;
    BYE*) echo "OK closing connection"; exit 0 ;;
    *) echo "OK" ;;
  esac
done
