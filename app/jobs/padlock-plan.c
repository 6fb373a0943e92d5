/* padlock-plan.c - what an input is, and what it needs (padlock-plan.h) */
#include "padlock-plan.h"

/* A message's decryption: by its key packets, and the keys known. */
static PadlockPlan
decide_decryption (const pl_sniff_result *sniffed,
                   PadlockHeldKeys       *held_keys,
                   PadlockPlanFlags       flags)
{
  int pkesk, skesk;

  if (sniffed->kind == PL_SNIFF_CLEARSIGNED)
    return PADLOCK_PLAN_CHECK_CLEARSIGNED;
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
  if (sniffed->kind == PL_SNIFF_MESSAGE
      || sniffed->kind == PL_SNIFF_CLEARSIGNED)
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
    case PADLOCK_PLAN_IMPORT_KEYS:
      return "import-keys";
    case PADLOCK_PLAN_WAIT_FOR_KEYS:
      return "wait-for-keys";
    }
  return "?";
}
