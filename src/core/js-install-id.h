/* js-install-id.h: a stable, anonymous id of this installation.
 *
 * The first 16 hex digits (64 bits) of SHA-256 over a fixed jankscope salt,
 * the machine id (/etc/machine-id, else /var/lib/dbus/machine-id) and the
 * uid: the same for every run of every app of one user on one machine,
 * different for another user or machine, and neither can be read back from
 * it. Nothing is written anywhere.
 *
 * JANKSCOPE_INSTALL_SHARE=x (0 < x <= 1) monitors only the installs whose id,
 * as a number, falls in the first x of the 64-bit space: per-install buckets
 * (docs/background.md), so an install is always in or always out, never sampled
 * event by event.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_INSTALL_ID_SALT "jankscope-install-id-v1"

/* Any thread; computed once. NULL when there is no machine id. */
const char *js_install_id (void);

/* The id from its inputs (tests): SHA-256 of SALT "\n" machine_id "\n" uid. */
char *js_install_id_compute (const char *machine_id, guint uid);

/* Whether `id` falls in the first `share` of the id space. Without an id,
 * only a share of 1 monitors. */
gboolean js_install_id_in_share (const char *id, double share);

G_END_DECLS
