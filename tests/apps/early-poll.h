/* early-poll.h - see early-poll.c */
#pragma once

#include <glib.h>

/* The poll function the library's constructor installed. */
GPollFunc early_poll_get_func (void);

/* How many times that poll function was called. */
guint early_poll_get_calls (void);
