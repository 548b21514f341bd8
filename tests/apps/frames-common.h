/* frames-common.h - the toolkit-independent part of frames-gtk4.c and
 * frames-gtk3.c (scenarios, stalls, what the app sees of its frame clocks,
 * the facts it prints); frames-common.c is compiled into both programs.
 *
 * Prints key=value facts on stdout; times are g_get_monotonic_time() x 1000
 * (ns on CLOCK_MONOTONIC, the report's clock):
 *   mapped=1, gtk_version=, glib_version=
 *   requested=NS                 paint-stall, layout-stall: when the redraw or
 *                                resize with the stall was queued
 *   stall=START,END              each busy-wait
 *   frames_drawn=N               draws while animating (animation,
 *                                second-window: of the second window)
 *   opened=NS, closed=NS         second-window (busy: opened)
 *   busy_start=NS, busy_end=NS   busy: its first and last slow frame
 *   busy_frames=N                busy: the slow frames it made
 *   busy_spent=NS                busy: the time spent in its spins (the rest of
 *                                busy_start..busy_end went to GTK, jankscope,
 *                                any other source)
 *   busy_cpu=NS, busy_spent_cpu=NS
 *                                busy: the main thread's CPU time from
 *                                busy_start to busy_end, and in the spins
 *   frames_seen=N                ::after-paint emissions the app saw, all windows
 *   window_frames=N              the same, per window (one line each)
 *   slow_frames_seen=N           frames whose own time (::before-paint to
 *                                ::after-paint, as the app sees it) exceeded 25 ms
 *   slow_frame=START,END,LATE    each of those, LATE: at most how late the
 *                                frame clock's dispatch was (::before-paint
 *                                minus the ready time of its source; 0 for
 *                                an idle source)
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STALL_MS 150
#define ANIMATION_S 5
#define BUSY_S 8

/* The state of one drawing area (0: the main window's, 1: the second's). */
typedef struct
{
  double phase;
  gboolean count_draws;
} AreaState;

/* Set by each program's main window code. */
extern GtkWidget *main_window;
extern GtkWidget *main_area;

/* --- What each program provides (the toolkit-specific part) -------------- */

/* "frames-gtk4" or "frames-gtk3". */
extern const char *const frames_program;

/* Quit the main loop. */
void frames_quit (void);

/* A window (not shown yet) holding a drawing area whose state is
 * area_states[@index]; its frame clock is watched as window @index. */
GtkWidget *frames_new_window (const char *title, int index, GtkWidget **area_out);

void frames_show_window (GtkWidget *window);
void frames_destroy_window (GtkWidget *window);

/* The state of a drawing area made by frames_new_window (). */
AreaState *frames_area_state (GtkWidget *area);

/* --- Shared --------------------------------------------------------------- */

extern AreaState area_states[2];

/* Connect to ::realize and ::unrealize of window @index (0 or 1). */
void frames_watch_window (GtkWidget *window, int index);

/* Call at the end of each draw (paint phase): counts it while animating,
 * runs the paint stall if one is pending. */
void frames_area_drawn (AreaState *state);

/* Call at each allocation (layout phase): runs the layout stall if one is
 * pending. */
void frames_area_allocated (void);

/* Connect to the main window's ::map: starts the scenario. */
void window_mapped_cb (GtkWidget *window, gpointer data);

/* Check the arguments (usage on stderr: return FALSE), set scenario, start
 * the watchdog. */
gboolean frames_start (int argc, char **argv);

/* The facts printed once the main loop has ended. */
void frames_print_end_facts (void);

G_END_DECLS
