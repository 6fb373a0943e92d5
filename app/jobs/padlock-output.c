/* padlock-output.c - the app's naming policy: where a job's output goes,
 * and under which name */
#include "padlock-output.h"

#include <limits.h>
#include <string.h>
#include <gcrypt.h>
#include <glib/gstdio.h>

#include "padlock-name.h"

#define HIDDEN_NAME_LEN 8
#define HIDDEN_ALPHABET "0123456789abcdefghijklmnopqrstuvwxyz"

/* How many taken names the plan steps over; past them, the sink says why
 * at commit. */
#define MAX_PLANNED_ATTEMPTS 10000

char *
padlock_output_stripped_name (const char *input_name)
{
  static const char *const suffixes[] = { ".gpg", ".pgp", ".asc", ".sig" };
  gsize len;

  g_return_val_if_fail (input_name != NULL, NULL);
  len = strlen (input_name);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (len > 4 && !g_ascii_strcasecmp (input_name + len - 4, suffixes[i]))
      return g_strndup (input_name, len - 4);
  return NULL;
}

/* Characters that a file manager shows as a slash or a backslash. */
static gboolean
is_lookalike_slash (gunichar c)
{
  switch (c)
    {
    case 0x0337:                /* combining short solidus overlay */
    case 0x0338:                /* combining long solidus overlay */
    case 0x1735:                /* Philippine single punctuation */
    case 0x2044:                /* fraction slash */
    case 0x20e5:                /* combining reverse solidus overlay */
    case 0x2215:                /* division slash */
    case 0x2216:                /* set minus */
    case 0x2571:                /* box drawings light diagonal */
    case 0x2572:
    case 0x27cb:                /* mathematical rising diagonal */
    case 0x27cd:                /* mathematical falling diagonal */
    case 0x29f5:                /* reverse solidus operator */
    case 0x29f8:                /* big solidus */
    case 0x29f9:                /* big reverse solidus */
    case 0x3033:                /* vertical kana repeat mark upper half */
    case 0xfe68:                /* small reverse solidus */
    case 0xff0f:                /* fullwidth solidus */
    case 0xff3c:                /* fullwidth reverse solidus */
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
padlock_output_name_is_safe (const char *name,
                             gsize       len)
{
  const char *end = name + len;
  gunichar first, last;

  if (len == 0 || !g_utf8_validate_len (name, len, NULL))
    return FALSE;
  /* A hidden file, an option to a command, a home folder, or a name that
   * looks like another: "report.pdf " and "report.pdf.".  Any space
   * counts, U+00A0 and U+3000 too. */
  first = g_utf8_get_char (name);
  last = g_utf8_get_char (g_utf8_find_prev_char (name, end));
  if (first == '.' || first == '-' || first == '~' || last == '.'
      || g_unichar_type (first) == G_UNICODE_SPACE_SEPARATOR
      || g_unichar_type (last) == G_UNICODE_SPACE_SEPARATOR)
    return FALSE;
  for (const char *p = name; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* Hidden or control characters change how the rest of the name
       * reads (U+202E shows "invoice\u202etxt.exe" as "invoiceexe.txt"). */
      if (c == '/' || c == '\\' || is_lookalike_slash (c)
          || padlock_name_char_is_hidden (c))
        return FALSE;
    }
  return TRUE;
}

char *
padlock_output_hidden_name_new (void)
{
  char name[HIDDEN_NAME_LEN + 1] = { 0 };

  do
    {
      for (guint i = 0; i < HIDDEN_NAME_LEN; i++)
        {
          guint8 octet;

          /* 252 = 7 × 36: no letter more likely than another. */
          do
            gcry_randomize (&octet, 1, GCRY_STRONG_RANDOM);
          while (octet >= 252);
          name[i] = HIDDEN_ALPHABET[octet % 36];
        }
    }
  while (!padlock_output_name_is_hidden (name));
  return g_strdup (name);
}

gboolean
padlock_output_name_is_hidden (const char *name)
{
  gboolean digit = FALSE;

  if (!name || strlen (name) != HIDDEN_NAME_LEN)
    return FALSE;
  for (const char *p = name; *p; p++)
    {
      if (!strchr (HIDDEN_ALPHABET, *p))
        return FALSE;
      digit |= g_ascii_isdigit (*p);
    }
  return digit;
}

/* The stored name when it wins and is safe; else NULL. */
static char *
stored_name (const PadlockOutputPlan *plan)
{
  const pl_literal_header *stored = plan->stored;

  if (!plan->stored_name_wins || !stored || !stored->name_len)
    return NULL;
  /* What gpg stores for standard input. */
  if (stored->name_len == 8 && !memcmp (stored->name, "_CONSOLE", 8))
    return NULL;
  if (!padlock_output_name_is_safe (stored->name, stored->name_len))
    return NULL;
  return g_strndup (stored->name, stored->name_len);
}

gpg_error_t
padlock_output_plan_name (const PadlockOutputPlan *plan,
                          unsigned                 attempt,
                          char                    *buf,
                          gsize                    size)
{
  g_autofree char *stored = stored_name (plan);

  return pl_file_name_numbered (stored ? stored : plan->name, plan->suffix,
                                attempt, buf, size);
}

/* The first name the plan gives that no file in its folder has now. */
static char *
first_free_name (const PadlockOutputPlan *plan)
{
  char name[NAME_MAX + 1];

  for (unsigned attempt = 0; attempt < MAX_PLANNED_ATTEMPTS; attempt++)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (padlock_output_plan_name (plan, attempt, name, sizeof name))
        break;
      path = g_build_filename (plan->dir, name, NULL);
      if (g_lstat (path, &st) != 0)
        return g_strdup (name);
    }
  /* The sink will say why at commit. */
  return g_strconcat (plan->name, plan->suffix, NULL);
}

PadlockOutputPlan *
padlock_output_plan (GFile                  *input,
                     PadlockDirection        direction,
                     const PadlockJobConfig *config,
                     const char             *hidden_name)
{
  PadlockOutputPlan *plan;
  g_autofree char *input_name = NULL;

  g_return_val_if_fail (G_IS_FILE (input), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  plan = g_new0 (PadlockOutputPlan, 1);
  input_name = g_file_get_basename (input);
  if (config->output_dir && *config->output_dir)
    plan->dir = g_strdup (config->output_dir);
  else
    {
      g_autoptr(GFile) parent = g_file_get_parent (input);
      plan->dir = g_file_get_path (parent);
    }
  if (direction == PADLOCK_DIRECTION_ENCRYPT)
    {
      plan->name = g_strdup (hidden_name ? hidden_name : input_name);
      plan->suffix = g_strdup (config->armor ? ".asc" : ".gpg");
    }
  else if (direction == PADLOCK_DIRECTION_SIGN)
    {
      /* Beside the file, as gpg --detach-sign names it; a name taken
       * is numbered as any output's ("iso (1).img.sig"). */
      plan->name = g_strdup (input_name);
      plan->suffix = g_strdup (config->armor ? ".asc" : ".sig");
    }
  else
    {
      plan->name = padlock_output_stripped_name (input_name);
      plan->stored_name_wins = !plan->name
                               || padlock_output_name_is_hidden (plan->name);
      if (!plan->name)
        plan->name = g_strdup (input_name);
      plan->suffix = g_strdup ("");
    }
  plan->output_name = first_free_name (plan);
  return plan;
}

void
padlock_output_plan_free (PadlockOutputPlan *plan)
{
  if (!plan)
    return;
  g_free (plan->dir);
  g_free (plan->name);
  g_free (plan->suffix);
  g_free (plan->output_name);
  g_free (plan);
}

static gpg_error_t
plan_name_fn (void     *user_data,
              unsigned  attempt,
              char     *buf,
              size_t    size)
{
  return padlock_output_plan_name (user_data, attempt, buf, size);
}

gpg_error_t
padlock_output_sink_new (PadlockOutputPlan        *plan,
                         const pl_literal_header  *stored,
                         pl_sink                 **out)
{
  g_return_val_if_fail (plan != NULL, gpg_error (GPG_ERR_INV_ARG));
  g_return_val_if_fail (out != NULL, gpg_error (GPG_ERR_INV_ARG));

  plan->stored = stored;
  return pl_sink_new_file_in (plan->dir, plan->output_name, plan_name_fn,
                              plan, out);
}
