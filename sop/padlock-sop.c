/* padlock-sop.c - the executable: sop.h is the rest */
#include <signal.h>

#include "sop.h"

int
main (int argc, char **argv)
{
  /* Past a file size limit (ulimit -f) a write fails with EFBIG, and the
   * command with it, instead of the process dying of SIGXFSZ. */
  signal (SIGXFSZ, SIG_IGN);
  return sop_main (argc, argv);
}
