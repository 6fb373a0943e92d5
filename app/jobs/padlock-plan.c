/* padlock-plan.c - what an input is, and what it needs (padlock-plan.h) */
#include "padlock-plan.h"

#include <string.h>

#include "checksums.h"

/* A message's decryption: by its key packets, and the keys known. */
static PadlockPlan
decide_decryption (const pl_sniff_result *sniffed,
                   PadlockHeldKeys       *held_keys,
                   PadlockPlanFlags       flags)
{
  int pkesk, skesk;

  if (sniffed->kind == PL_SNIFF_CLEARSIGNED)
    return PADLOCK_PLAN_CHECK_CLEARSIGNED;
  if (sniffed->kind == PL_SNIFF_SIGNATURE)
    return PADLOCK_PLAN_CHECK_DETACHED;
  /* Signed (or literal data alone): no key opens it, none is asked. */
  if (sniffed->kind == PL_SNIFF_MESSAGE && sniffed->unencrypted)
    return PADLOCK_PLAN_CHECK_SIGNED;
  pl_sniff_key_kinds (sniffed, &pkesk, &skesk);
  if (!pkesk)
    return PADLOCK_PLAN_DECRYPT_PASSPHRASE;
  if (!held_keys)
    return flags & PADLOCK_PLAN_KEYS_PENDING ? PADLOCK_PLAN_WAIT_FOR_KEYS
                                             : PADLOCK_PLAN_DECRYPT_PASSPHRASE;
  if (!skesk)
    return PADLOCK_PLAN_DECRYPT_KEYS;
  return padlock_held_keys_may_open (held_keys, sniffed)
         ? PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE
         : PADLOCK_PLAN_DECRYPT_PASSPHRASE;
}

/* Whether FILE's base name says checksum list (pl_checksums_name_is_list). */
static gboolean
name_is_list (GFile *file)
{
  g_autofree char *name = file ? g_file_get_basename (file) : NULL;

  return name && pl_checksums_name_is_list (name);
}

/* A checksum list (issue 34 §3): a regular file named as one, whose text
 * reads as one or that is cleartext-signed. */
static gboolean
is_checksum_list (PadlockInput *input)
{
  const pl_sniff_result *sniffed = padlock_input_get_sniff (input);

  if (padlock_input_is_folder (input) || padlock_input_is_stream (input)
      || !name_is_list (padlock_input_get_file (input)))
    return FALSE;
  return sniffed->kind == PL_SNIFF_CLEARSIGNED
         || (sniffed->kind == PL_SNIFF_NOT_OPENPGP
             && padlock_input_is_checksum_text (input));
}

/* A detached signature whose signed file, by its name, is a checksum
 * list: SHA256SUMS.gpg. */
static gboolean
signs_checksum_list (PadlockInput *input)
{
  g_autoptr(GFile) signed_file = NULL;

  if (padlock_input_get_sniff (input)->kind != PL_SNIFF_SIGNATURE
      || padlock_input_is_stream (input))
    return FALSE;
  signed_file = padlock_plan_signed_file (padlock_input_get_file (input));
  return name_is_list (signed_file);
}

/* Asked for nothing: a message (or a name that says OpenPGP) is
 * decrypted, a key block imported when the caller can, the rest
 * encrypted. */
static gboolean
is_to_encrypt (PadlockInput          *input,
               const pl_sniff_result *sniffed)
{
  g_autofree char *name = NULL;

  if (padlock_input_is_folder (input))
    return TRUE;
  /* A signature is never encrypted by mistake (issue 34), whatever
   * its name. */
  if (sniffed->kind == PL_SNIFF_MESSAGE
      || sniffed->kind == PL_SNIFF_CLEARSIGNED
      || sniffed->kind == PL_SNIFF_SIGNATURE)
    return FALSE;
  name = g_file_get_basename (padlock_input_get_file (input));
  return !pl_sniff_name_says_openpgp (name);
}

PadlockPlan
padlock_plan_decide (PadlockInput     *input,
                     PadlockPlanAsk    ask,
                     PadlockHeldKeys  *held_keys,
                     PadlockPlanFlags  flags)
{
  const pl_sniff_result *sniffed;

  g_return_val_if_fail (input != NULL, PADLOCK_PLAN_ENCRYPT);
  g_return_val_if_fail (padlock_input_is_sniffed (input), PADLOCK_PLAN_ENCRYPT);

  sniffed = padlock_input_get_sniff (input);
  if (ask == PADLOCK_PLAN_ASK_ENCRYPT)
    return PADLOCK_PLAN_ENCRYPT;
  if (is_checksum_list (input) || signs_checksum_list (input))
    return PADLOCK_PLAN_CHECK_LIST;
  if (ask == PADLOCK_PLAN_ASK_NOTHING)
    {
      if ((flags & PADLOCK_PLAN_IMPORT)
          && sniffed->kind == PL_SNIFF_PUBLIC_KEY)
        return PADLOCK_PLAN_IMPORT_KEYS;
      if (is_to_encrypt (input, sniffed))
        return PADLOCK_PLAN_ENCRYPT;
    }
  return decide_decryption (sniffed, held_keys, flags);
}

PadlockDirection
padlock_plan_direction (PadlockPlan plan)
{
  return plan == PADLOCK_PLAN_ENCRYPT ? PADLOCK_DIRECTION_ENCRYPT
                                      : PADLOCK_DIRECTION_DECRYPT;
}

const char *
padlock_plan_to_string (PadlockPlan plan)
{
  switch (plan)
    {
    case PADLOCK_PLAN_ENCRYPT:
      return "encrypt";
    case PADLOCK_PLAN_DECRYPT_PASSPHRASE:
      return "decrypt-passphrase";
    case PADLOCK_PLAN_DECRYPT_KEYS:
      return "decrypt-keys";
    case PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE:
      return "decrypt-keys-or-passphrase";
    case PADLOCK_PLAN_CHECK_CLEARSIGNED:
      return "check-clearsigned";
    case PADLOCK_PLAN_CHECK_DETACHED:
      return "check-detached";
    case PADLOCK_PLAN_CHECK_SIGNED:
      return "check-signed";
    case PADLOCK_PLAN_CHECK_LIST:
      return "check-list";
    case PADLOCK_PLAN_IMPORT_KEYS:
      return "import-keys";
    case PADLOCK_PLAN_WAIT_FOR_KEYS:
      return "wait-for-keys";
    }
  return "?";
}

GFile *
padlock_plan_signed_file (GFile *signature)
{
  static const char *const suffixes[] = { ".sig", ".asc", ".sign", ".gpg" };
  g_autofree char *name = NULL;
  g_autoptr(GFile) parent = NULL;
  gsize len;

  g_return_val_if_fail (G_IS_FILE (signature), NULL);
  name = g_file_get_basename (signature);
  parent = g_file_get_parent (signature);
  if (!name || !parent)
    return NULL;
  len = strlen (name);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      gsize n = strlen (suffixes[i]);

      if (len > n && !g_ascii_strcasecmp (name + len - n, suffixes[i]))
        {
          g_autofree char *data = g_strndup (name, len - n);

          return g_file_get_child (parent, data);
        }
    }
  return NULL;
}

/* Whether INPUT can be a signature's data file: a regular file. */
static gboolean
may_be_data (PadlockInput *input)
{
  return !padlock_input_is_folder (input) && !padlock_input_is_stream (input);
}

/* The input among INPUTS that SIGNED names: the same file first, else
 * one of the same name; -1 for none. */
static int
find_data (PadlockInput *const *inputs,
           guint               n_inputs,
           GFile              *signed_file)
{
  g_autofree char *name = g_file_get_basename (signed_file);
  int same_name = -1;

  for (guint j = 0; j < n_inputs; j++)
    {
      GFile *file = padlock_input_get_file (inputs[j]);
      g_autofree char *other = NULL;

      if (!may_be_data (inputs[j]))
        continue;
      if (g_file_equal (file, signed_file))
        return (int) j;
      other = g_file_get_basename (file);
      if (same_name < 0 && other && !strcmp (other, name))
        same_name = (int) j;
    }
  return same_name;
}

void
padlock_plan_pair (PadlockInput *const *inputs,
                   guint               n_inputs,
                   PadlockPlanAsk      ask,
                   int                *pairs)
{
  for (guint i = 0; i < n_inputs; i++)
    pairs[i] = PADLOCK_PLAN_UNPAIRED;
  for (guint i = 0; i < n_inputs && ask != PADLOCK_PLAN_ASK_ENCRYPT; i++)
    {
      g_autoptr(GFile) signed_file = NULL;
      int j;

      if (!padlock_input_is_sniffed (inputs[i])
          || padlock_input_get_sniff (inputs[i])->kind != PL_SNIFF_SIGNATURE)
        continue;
      signed_file = padlock_plan_signed_file (padlock_input_get_file (inputs[i]));
      if (!signed_file)
        continue;
      j = find_data (inputs, n_inputs, signed_file);
      /* A signature is not another's data: each has its own job. */
      if (j < 0 || j == (int) i || pairs[j] >= 0
          || (padlock_input_is_sniffed (inputs[j])
              && padlock_input_get_sniff (inputs[j])->kind == PL_SNIFF_SIGNATURE))
        continue;
      pairs[i] = j;
      pairs[j] = PADLOCK_PLAN_SIGNED_DATA;
    }
}
