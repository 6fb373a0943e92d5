/* main.c - Padlock */
#include "padlock-config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>

#include "padlock-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PadlockApplication) app = NULL;

  /* Past a file size limit (ulimit -f) a write fails with EFBIG, and the
   * job with it, instead of the process dying of SIGXFSZ. */
  signal (SIGXFSZ, SIG_IGN);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = padlock_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
