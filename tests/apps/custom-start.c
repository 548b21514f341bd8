/* custom-start.c - a GLib program with its own _start (x86-64 only)
 *
 * Linked with -nostartfiles: its start code calls main () directly, never
 * glibc's __libc_start_main, so the preload cannot see main () start. It
 * falls back to the first main-loop use (src/preload/preload-start.c): the
 * loop below must still be monitored. A 120 ms busy-wait runs in a timeout
 * named "custom-start-stall", then the loop quits.
 *
 * (Without __libc_start_main the executable's own constructors do not run:
 * it has none.)
 */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>

/* Entered with the stack as the kernel made it (argc, argv..., NULL,
 * envp..., NULL) and the dynamic loader's finalizer in %rdx. */
__asm__(".text\n"
        ".globl _start\n"
        ".type _start, @function\n"
        "_start:\n"
        "  xor %ebp, %ebp\n"
        "  mov %rsp, %rdi\n"
        "  mov %rdx, %rsi\n"
        "  and $-16, %rsp\n"
        "  call custom_start_c\n"
        "  hlt\n");

/* atexit () refers to it; crtbegin.o, left out too, defines it otherwise. */
__attribute__ ((visibility ("hidden"))) void *__dso_handle = &__dso_handle;

int main (int argc, char **argv);
__attribute__ ((noreturn, used)) void custom_start_c (long *sp, void (*rtld_fini) (void));

void
custom_start_c (long *sp, void (*rtld_fini) (void))
{
  int argc = (int) sp[0];
  char **argv = (char **) (sp + 1);

  if (rtld_fini != NULL)
    atexit (rtld_fini);
  exit (main (argc, argv));
}

static GMainLoop *loop;

gboolean
custom_start_stall_cb (gpointer data)
{
  busy_wait_ms (120);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  print_common_facts ();
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("custom-start-stall", 50, custom_start_stall_cb, NULL);
  run_loop (loop);
  g_main_loop_unref (loop);
  printf ("done=1\n");
  return 0;
}
