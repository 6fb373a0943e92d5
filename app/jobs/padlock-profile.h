/* padlock-profile.h - the encryption profiles in the words people know
 *
 * core's pl_profiles () is the one table of what each profile is called,
 * what it writes and who reads it; these translate it, for the encrypt
 * dialog, the rows and the preferences.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "OpenPGP (RFC 4880)": the standard's name, translated. */
const char *padlock_profile_title   (int profile);
/* "OpenPGP (RFC 4880) · opens in GnuPG, Kleopatra, …": the title and who
 * can open what it writes, translated, on one line. */
char       *padlock_profile_summary (int profile);
/* "OpenPGP (RFC 4880) · all recipients' software reads it": the title,
 * for a message whose format its recipients' keys chose
 * (padlock-recipients.h). */
char       *padlock_profile_for_recipients (int profile);
/* "SEIPD v1 with AES-256 · opens in GnuPG, …": what it writes and who
 * can open it, translated, for the preferences. */
char       *padlock_profile_details (int profile);

G_END_DECLS
