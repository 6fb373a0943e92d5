/* padlock-profile.c - the encryption profiles in the words people know */
#include "padlock-profile.h"

#include <glib/gi18n.h>

#include "job.h"

const char *
padlock_profile_title (int profile)
{
  switch (profile)
    {
    case PL_PROFILE_RFC4880:
      return _("OpenPGP (RFC 4880)");
    case PL_PROFILE_LIBREPGP:
      return _("LibrePGP");
    case PL_PROFILE_RFC9580:
      return _("OpenPGP v6 (RFC 9580)");
    default:
      g_return_val_if_reached ("");
    }
}

/* Who reads it, as tested by tests/test-interop-*: the formats differ in
 * what GnuPG accepts, which is what most people have. */
static const char *
profile_readers (int profile)
{
  switch (profile)
    {
    case PL_PROFILE_RFC4880:
      return _("opens in GnuPG, Kleopatra, RNP, Sequoia, OpenPGP.js");
    case PL_PROFILE_LIBREPGP:
      return _("opens in GnuPG 2.2.21 or later, RNP, OpenPGP.js");
    case PL_PROFILE_RFC9580:
      return _("opens in Sequoia, OpenPGP.js 6, GopenPGP; not GnuPG 2.2/2.4");
    default:
      g_return_val_if_reached ("");
    }
}

char *
padlock_profile_summary (int profile)
{
  return g_strdup_printf ("%s · %s", padlock_profile_title (profile),
                          profile_readers (profile));
}
