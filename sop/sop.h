/* sop.h - padlock-sop, the Stateless OpenPGP command line
 *
 * Its subcommands: encrypt and decrypt (with passwords, session keys and
 * certificates), armor, dearmor and speed in sop.c; generate-key and
 * extract-cert in sop-keys.c; sign, verify and their inline forms in
 * sop-sigs.c.  What they read and write, and the exit codes: sop-io.h.
 */
#pragma once

/* Runs one SOP command; returns the process exit code. */
int sop_main (int argc, char **argv);
