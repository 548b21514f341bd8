/* js-signature.h: a stack's signature, the key that groups "the same cause".
 *
 * The rule (docs/background.md, "Stack signatures"): drop line numbers and
 * addresses, drop the main loop's and the monitor's own frames, keep the top
 * N frames. What is left is the same across runs, builds and machines of one
 * app version:
 *
 *   "do_query (libapp.so) < on_row_activated (app) < g_signal_emit"
 *
 * The text is made of function names (module only where a frame has no
 * name: "libglib-2.0.so.0!?", repeated unnamed frames of one module count
 * once), innermost first. The id is a 64-bit FNV-1a hash of the text, as 16
 * hex digits. It starts at the innermost frame outside libc, the loader and
 * GLib (where in memcpy a sample landed does not matter). Frames left out:
 * the main loop (g_main_*), poll/ppoll/epoll, signal trampolines, dispatch
 * glue, jankscope's own modules, the program's start-up frames (main and
 * below), and unnamed frames of libc and the loader.
 *
 * Shared by the core (reports carry each stack's signature) and the CLI
 * (which can recompute it with another N). GLib only; any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_SIGNATURE_DEFAULT_FRAMES 5
#define JS_SIGNATURE_MAX_FRAMES 64

typedef struct
{
  const char *function; /* may be NULL */
  const char *module;   /* file name, may be NULL */
} JsSignatureFrame;

/* Is this frame left out of signatures? */
gboolean js_signature_frame_is_noise (const char *function, const char *module);

/* The signature of `frames` (leaf first), keeping at most `max_frames`
 * frames (1..JS_SIGNATURE_MAX_FRAMES). Returns the text (empty when every
 * frame is noise) and sets `id` (17 bytes: 16 hex digits and NUL). */
char *js_signature_compute (const JsSignatureFrame *frames, guint n_frames, guint max_frames,
                            char id[17]);

G_END_DECLS
