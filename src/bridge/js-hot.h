/* js-hot.h: what the main thread runs and touches at every iteration of its
 * loop sits together, in as few 4 KiB pages as it fits.
 *
 * Where a kernel entry flushes the TLB (page-table isolation without PCID,
 * and some virtual machines), every distinct page the app touches after its
 * poll returns costs a page walk: two to five nanoseconds each, measured by
 * bench/kernel-entry-cost.c (a few dozen pages read after two getppid
 * calls). jankscope's per-iteration work is a few hundred instructions, but
 * spread as the linker left it, over some twenty pages of its two objects:
 * the poll function, the dispatch hook, the ring and the stand-ins each in
 * a page of code of their own, and their variables in a dozen pages of
 * .data and .bss, among the tables only its other threads read. The page
 * walks cost about as much as the instructions (bench/run-page-touch.py
 * counts the pages a dispatch touches).
 *
 * JS_HOT: a function the main thread runs at every iteration, dispatch or
 * attach, in the section `js_hot_text` (and optimised as GCC's `hot`).
 *
 * JS_HOT_DATA: a variable such a function reads or writes every time, in
 * the section `js_hot_data`. Only small variables: a large table would
 * push the others apart. Writable, never const (a section holds one kind),
 * initialised or not as any variable (zeros take room in the file).
 *
 * The linker keeps each section in one piece wherever it puts it (a
 * section unknown to its script goes next to those of the same kind);
 * js-hot.ld, given to it where it takes such a script, starts each on a
 * page of its own, so that each fits in one.
 *
 * Plain C, no GLib: the preload includes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if defined(__GNUC__) && defined(__ELF__)
#define JS_HOT __attribute__ ((hot, section ("js_hot_text")))
#define JS_HOT_DATA __attribute__ ((section ("js_hot_data")))
#else
#define JS_HOT
#define JS_HOT_DATA
#endif
