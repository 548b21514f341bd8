/* jankscope.h: public definitions for programs that read or produce
 * jankscope reports, and (from the analysis milestone on) for apps that
 * annotate their own work.
 *
 * Header-only: including it adds no link dependency, and nothing here
 * changes how an app behaves when jankscope is not loaded.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef JANKSCOPE_H
#define JANKSCOPE_H

#define JANKSCOPE_MAJOR_VERSION 0
#define JANKSCOPE_MINOR_VERSION 1
#define JANKSCOPE_MICRO_VERSION 0

/* The "format" and "version" members of a report (docs/report-format.md). */
#define JANKSCOPE_REPORT_FORMAT "jankscope-report"
#define JANKSCOPE_REPORT_VERSION 1

/* Severity tiers, as spelled in reports. */
#define JANKSCOPE_TIER_NOTICEABLE "noticeable"
#define JANKSCOPE_TIER_SEVERE "severe"
#define JANKSCOPE_TIER_FROZEN "frozen"
#define JANKSCOPE_TIER_HANG "hang"

#endif /* JANKSCOPE_H */
