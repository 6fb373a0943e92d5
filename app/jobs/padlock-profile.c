/* padlock-profile.c - the encryption profiles in the words people know */
#include "padlock-profile.h"

#include <glib/gi18n.h>

#include "job.h"

static const pl_profile_info *
profile_info (int profile)
{
  size_t n;
  const pl_profile_info *profiles = pl_profiles (&n);

  return profile >= 0 && (size_t) profile < n ? &profiles[profile] : NULL;
}

const char *
padlock_profile_title (int profile)
{
  const pl_profile_info *p = profile_info (profile);

  g_return_val_if_fail (p != NULL, "");
  return _(p->title);
}

char *
padlock_profile_summary (int profile)
{
  const pl_profile_info *p = profile_info (profile);

  g_return_val_if_fail (p != NULL, NULL);
  return g_strdup_printf ("%s · %s", _(p->title), _(p->readers));
}

char *
padlock_profile_details (int profile)
{
  const pl_profile_info *p = profile_info (profile);

  g_return_val_if_fail (p != NULL, NULL);
  return g_strdup_printf ("%s · %s", _(p->format), _(p->readers));
}

char *
padlock_profile_for_recipients (int profile)
{
  const pl_profile_info *p = profile_info (profile);

  g_return_val_if_fail (p != NULL, NULL);
  /* Translators: after the format's name, "OpenPGP (RFC 4880)". */
  return g_strdup_printf ("%s · %s", _(p->title),
                          _("all recipients' software reads it"));
}
