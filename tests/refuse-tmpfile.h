/* refuse-tmpfile.h - O_TMPFILE refused on demand, as on filesystems
 * without it, so that core/io.c's file sink takes its mkstemp fallback.
 *
 * Linking this in replaces open64 for the whole test: the engine is linked
 * statically, so its open () is this one.  Other opens pass through. */
#pragma once

#include <glib.h>

void tu_refuse_tmpfile (gboolean refuse);
