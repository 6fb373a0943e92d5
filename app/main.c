/* main.c - Padlock */
#include "padlock-config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>

#include "padlock-application.h"
#include "padlock-settings.h"

/* Where the translations are: the build tree's when the program runs
 * from one (`make run`), else the installed ones. */
static void
bind_translations (void)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = program ? padlock_settings_build_locale_dir (program) : NULL;

  bindtextdomain (GETTEXT_PACKAGE, dir ? dir : LOCALEDIR);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PadlockApplication) app = NULL;

  /* Past a file size limit (ulimit -f) a write fails with EFBIG, and the
   * job with it, instead of the process dying of SIGXFSZ. */
  signal (SIGXFSZ, SIG_IGN);
  setlocale (LC_ALL, "");
  bind_translations ();
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = padlock_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
