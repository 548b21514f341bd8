/* A module linked with -s: only .dynsym is left, so its static function has
 * no name the symbolizer could find (and must not get its neighbour's). */

int symbolizer_stripped_exported (int x);
void *symbolizer_stripped_static_address (void);

static __attribute__ ((noinline)) int
stripped_static (int x)
{
  int sum = 0;

  for (int i = 0; i < x; i++)
    sum += i ^ x;
  return sum;
}

int
symbolizer_stripped_exported (int x)
{
  return stripped_static (x) + 1;
}

void *
symbolizer_stripped_static_address (void)
{
  return (void *) stripped_static;
}
