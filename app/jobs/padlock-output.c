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

/* The suffixes a check takes for a list's detached signature beside it
 * (padlock-job-run.c: list_signature_beside), the one written among
 * them. */
static const char *const list_signature_suffixes[] = {
  ".gpg", ".sign", ".asc", ".sig"
};

/* Whether a list named CANDIDATE in DIR may be written: neither it nor
 * any signature beside it is there. */
static gboolean
list_name_free (const char *dir,
                const char *candidate)
{
  g_autofree char *path = g_build_filename (dir, candidate, NULL);
  GStatBuf st;

  if (g_lstat (path, &st) == 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (list_signature_suffixes); i++)
    {
      g_autofree char *sig = g_strconcat (path, list_signature_suffixes[i],
                                          NULL);

      if (g_lstat (sig, &st) == 0)
        return FALSE;
    }
  return TRUE;
}

/* From number *NEXT on, the first name of the list NAME in DIR whose
 * signatures' names are free (the list's own may be taken by the time
 * it is linked: the sink then asks again), into BUF; *NEXT past it. */
static gpg_error_t
next_list_name (const char *dir,
                const char *name,
                unsigned   *next,
                char       *buf,
                gsize       size)
{
  for (; *next < MAX_PLANNED_ATTEMPTS; (*next)++)
    {
      g_autofree char *path = NULL;
      gboolean free_sigs = TRUE;
      gpg_error_t err = pl_file_name_numbered (name, "", *next, buf, size);

      if (err)
        return err;
      path = g_build_filename (dir, buf, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (list_signature_suffixes); i++)
        {
          g_autofree char *sig = g_strconcat (path, list_signature_suffixes[i],
                                              NULL);
          GStatBuf st;

          free_sigs = free_sigs && g_lstat (sig, &st) != 0;
        }
      if (free_sigs)
        {
          (*next)++;
          return 0;
        }
    }
  return gpg_error (GPG_ERR_EEXIST);
}

char *
padlock_list_output_first_free (const char *dir,
                                const char *name)
{
  char buf[NAME_MAX + 1];
  unsigned next = 0;

  while (!next_list_name (dir, name, &next, buf, sizeof buf))
    if (list_name_free (dir, buf))
      return g_strdup (buf);
  /* The sink will say why at commit. */
  return g_strdup (name);
}

static gpg_error_t
list_name_fn (void     *user_data,
              unsigned  attempt,
              char     *buf,
              size_t    size)
{
  PadlockListOutput *out = user_data;

  if (attempt == 0)
    out->next = 0;
  return next_list_name (out->dir, out->name, &out->next, buf, size);
}

/* The signature's one name: the list's, as linked, and the suffix. */
static gpg_error_t
sig_name_fn (void     *user_data,
             unsigned  attempt,
             char     *buf,
             size_t    size)
{
  PadlockListOutput *out = user_data;
  const char *list = pl_sink_file_path (out->list);
  g_autofree char *base = NULL;

  if (attempt > 0 || !list)
    return gpg_error (GPG_ERR_EEXIST);
  base = g_path_get_basename (list);
  if (g_snprintf (buf, size, "%s%s", base, out->sig_suffix) >= (int) size
      || strlen (buf) > NAME_MAX)
    return gpg_error (GPG_ERR_ENAMETOOLONG);
  return 0;
}

gpg_error_t
padlock_list_output_open (PadlockListOutput *out,
                          const char        *dir,
                          const char        *name,
                          const char        *sig_suffix)
{
  g_autofree char *sig_name = g_strconcat (name, sig_suffix, NULL);
  gpg_error_t err;

  out->dir = g_strdup (dir);
  out->name = g_strdup (name);
  out->sig_suffix = g_strdup (sig_suffix);
  err = pl_sink_new_file_in (dir, name, list_name_fn, out, &out->list);
  if (!err)
    err = pl_sink_new_file_in (dir, sig_name, sig_name_fn, out, &out->sig);
  return err;
}

gpg_error_t
padlock_list_output_commit (PadlockListOutput *out)
{
  gpg_error_t err = out->list->commit (out->list);

  if (err)
    return err;
  err = out->sig->commit (out->sig);
  if (err)
    {
      /* Neither, then: the list this commit linked a moment ago goes. */
      g_unlink (pl_sink_file_path (out->list));
      return err;
    }
  out->list_path = g_strdup (pl_sink_file_path (out->list));
  out->sig_path = g_strdup (pl_sink_file_path (out->sig));
  return 0;
}

void
padlock_list_output_clear (PadlockListOutput *out)
{
  if (out->sig)
    {
      out->sig->abort (out->sig);
      pl_sink_free (out->sig);
    }
  if (out->list)
    {
      out->list->abort (out->list);
      pl_sink_free (out->list);
    }
  g_free (out->dir);
  g_free (out->name);
  g_free (out->sig_suffix);
  g_free (out->list_path);
  g_free (out->sig_path);
  memset (out, 0, sizeof *out);
}
