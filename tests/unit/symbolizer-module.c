/* A module the symbolizer test dlopens and dlcloses (no -z nodelete).
 * Built twice: the second copy (SYMBOLIZER_MODULE_V2) has the same code
 * under another name, so another build-id, for a file replaced on disk. */

#ifdef SYMBOLIZER_MODULE_V2
#define symbolizer_module_function symbolizer_module_replaced
#endif

int symbolizer_module_function (int x);

int
symbolizer_module_function (int x)
{
  int sum = 0;

  for (int i = 0; i < x; i++)
    sum += i * x;
  return sum;
}
