/* plain-c.c - a program that does not use GLib at all
 *
 * Run under the preload it must behave exactly as without it: same output,
 * same exit code (3), nothing on stderr. With --maps it also says whether
 * GLib or jankscope's core got mapped into it (neither may be).
 */
#include <stdio.h>
#include <string.h>

static int
mapped (const char *needle)
{
  char line[4096];
  FILE *maps = fopen ("/proc/self/maps", "r");
  int found = 0;

  if (maps == NULL)
    return -1;
  while (!found && fgets (line, sizeof line, maps) != NULL)
    found = strstr (line, needle) != NULL;
  fclose (maps);
  return found;
}

int
main (int argc, char **argv)
{
  printf ("hello from plain C, %d argument(s)\n", argc - 1);
  for (int i = 1; i < argc; i++)
    printf ("arg %d: %s\n", i, argv[i]);
  if (argc > 1 && strcmp (argv[1], "--maps") == 0)
    {
      printf ("libglib_mapped=%d\n", mapped ("libglib-2.0"));
      printf ("core_mapped=%d\n", mapped ("jankscope-core"));
    }
  return 3;
}
