/* padlock-profile.h - the encryption profiles in the words people know
 *
 * core's pl_profiles () says what each profile is made of; these say what
 * the format is called and which programs open it, for the encrypt dialog,
 * the rows and the preferences.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "OpenPGP (RFC 4880)": the standard's name, translated. */
const char *padlock_profile_title   (int profile);
/* "OpenPGP (RFC 4880) · opens in GnuPG, Kleopatra, …": the title and who
 * can open what it writes, translated, on one line. */
char       *padlock_profile_summary (int profile);

G_END_DECLS
