/* padlock-sop.c - the executable: all of it lives in sop.c */
#include "sop.h"

int
main (int argc, char **argv)
{
  return pl_sop_main (argc, argv);
}
