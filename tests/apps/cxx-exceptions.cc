/* cxx-exceptions.cc - C++ exceptions in a GLib program
 *
 * A preload that drags in a second unwinder can take over C++ exception
 * unwinding (libunwind does: docs/background.md, "Interposition"): throw
 * and catch inside a GLib callback and across frames of this program, print
 * what was caught and exit with 5. The output must be the same with and
 * without jankscope.
 */
#include <glib.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace
{

int caught;

void
thrower (int depth)
{
  if (depth == 0)
    throw std::runtime_error ("deep " + std::to_string (caught));
  thrower (depth - 1);
}

gboolean
throwing_idle (gpointer data)
{
  for (int i = 0; i < 100; i++)
    {
      try
        {
          thrower (i % 10);
        }
      catch (const std::runtime_error &e)
        {
          caught++;
        }
    }
  g_main_loop_quit (static_cast<GMainLoop *> (data));
  return G_SOURCE_REMOVE;
}

} // namespace

int
main ()
{
  GMainLoop *loop = g_main_loop_new (nullptr, FALSE);

  g_idle_add (throwing_idle, loop);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  try
    {
      throw 42;
    }
  catch (int value)
    {
      std::printf ("caught %d exceptions in the loop, then %d\n", caught, value);
    }
  return 5;
}
