/* early-poll.c - a library that installs a poll function in its constructor
 *
 * pollfunc-before links this library, so its constructor runs before an
 * LD_PRELOAD object's constructor (glibc runs the initialisers of a
 * program's DT_NEEDED libraries before those of the preloaded objects): the
 * poll function is in place before jankscope starts.
 */
#include "early-poll.h"

static guint calls; /* main thread only */

static gint
early_poll_func (GPollFD *fds, guint nfds, gint timeout)
{
  calls++;
  return g_poll (fds, nfds, timeout);
}

__attribute__ ((constructor)) static void
early_poll_install (void)
{
  g_main_context_set_poll_func (g_main_context_default (), early_poll_func);
}

GPollFunc
early_poll_get_func (void)
{
  return early_poll_func;
}

guint
early_poll_get_calls (void)
{
  return calls;
}
