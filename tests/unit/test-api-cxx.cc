// include/jankscope.h from C++ (gtkmm apps): it compiles and, without
// jankscope, does nothing. Exit code 0 = pass.
#include <jankscope.h>

int
main ()
{
  jankscope_scene_push ("scene");
  jankscope_mark_begin ("mark");
  jankscope_mark_end ();
  jankscope_scene_pop ();
  return jankscope_is_active () == 0 && *jankscope_api_cache_ () == 0 ? 0 : 1;
}
