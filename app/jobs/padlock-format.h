/* padlock-format.h - numbers in the words a row shows */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "412 MB/s" */
char *padlock_format_rate      (double bytes_per_second);
/* "3 s left", "2 min left", "1 h 5 min left"; NULL when unknown. */
char *padlock_format_time_left (double seconds);

G_END_DECLS
