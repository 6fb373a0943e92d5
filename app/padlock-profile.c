/* padlock-profile.c - the encryption profiles in the words people know */
#include "padlock-profile.h"

#include <glib/gi18n.h>

#include "job.h"

/* Who reads each format, as the tests/test-interop-* runs show: they
 * differ in what GnuPG accepts, which is what most people have. */
static const struct
{
  const char *title;
  const char *readers;
} profile_words[] = {
  [PL_PROFILE_RFC4880] = { N_("OpenPGP (RFC 4880)"),
                           N_("opens in GnuPG, Kleopatra, RNP, Sequoia, OpenPGP.js") },
  [PL_PROFILE_LIBREPGP] = { N_("LibrePGP"),
                            N_("opens in GnuPG 2.2.21 or later, RNP, OpenPGP.js") },
  [PL_PROFILE_RFC9580] = { N_("OpenPGP v6 (RFC 9580)"),
                           N_("opens in Sequoia, OpenPGP.js 6, GopenPGP; "
                              "not GnuPG 2.2/2.4") },
};

const char *
padlock_profile_title (int profile)
{
  g_return_val_if_fail (profile >= 0 && profile < (int) G_N_ELEMENTS (profile_words), "");
  return _(profile_words[profile].title);
}

char *
padlock_profile_summary (int profile)
{
  g_return_val_if_fail (profile >= 0 && profile < (int) G_N_ELEMENTS (profile_words), NULL);
  return g_strdup_printf ("%s · %s", _(profile_words[profile].title),
                          _(profile_words[profile].readers));
}
