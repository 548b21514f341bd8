/* jsr-json-read.h: typed, checked access to the members of an untrusted document
 *
 * Every getter checks presence, type and range and, on a problem, sets a
 * JSR_JSON_ERROR_INVALID error that names the member by its path
 * ("events[3].stacks[0].count must not be negative (it is -2)"). Paths are
 * chains of stack-allocated links, turned into text only for an error, so
 * that reading a large document allocates nothing per member.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-doc.h"

G_BEGIN_DECLS

/* What an optional number reads when it is null or missing ("unknown"). */
#define JSR_UNKNOWN (-1)
/* The longest string the getters copy, in bytes. */
#define JSR_JSON_MAX_STRING 1024

typedef struct _JsrJsonPath JsrJsonPath;

/* A member (`member` != NULL) or an element (`index`) of `parent`; the
 * document's root is the NULL path. */
struct _JsrJsonPath
{
  const JsrJsonPath *parent;
  const char *member;
  guint index;
};

#define JSR_JSON_MEMBER(parent_, member_)                                                          \
  {                                                                                                \
    (parent_), (member_), 0                                                                        \
  }
#define JSR_JSON_ELEMENT(parent_, index_)                                                          \
  {                                                                                                \
    (parent_), NULL, (index_)                                                                      \
  }

/* "events[3].stacks" for path events[3] and member "stacks" (member may be
 * NULL: the path itself). */
char *jsr_json_path_to_string (const JsrJsonPath *path, const char *member);
const char *jsr_json_describe (const JsrJsonNode *node);

/* Sets "PATH.MEMBER is missing" or "PATH.MEMBER must be EXPECTED, not
 * FOUND"; returns FALSE. */
gboolean jsr_json_invalid (GError **error, const JsrJsonPath *path, const char *member,
                           const char *expected, const JsrJsonNode *found);

gboolean jsr_json_is_absent (const JsrJsonNode *node);

/* An integer >= 0. */
gboolean jsr_json_read_count (const JsrJsonNode *object, const JsrJsonPath *path,
                              const char *member, gint64 *out, GError **error);
/* An integer >= 0, or JSR_UNKNOWN when null or missing. */
gboolean jsr_json_read_optional_count (const JsrJsonNode *object, const JsrJsonPath *path,
                                       const char *member, gint64 *out, GError **error);
/* A string (a copy of at most JSR_JSON_MAX_STRING bytes); a nullable one
 * may also be null or missing (NULL). */
gboolean jsr_json_read_string (const JsrJsonNode *object, const JsrJsonPath *path,
                               const char *member, gboolean nullable, char **out, GError **error);
gboolean jsr_json_read_bool (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                             gboolean *out, GError **error);
/* FALSE when null or missing. */
gboolean jsr_json_read_optional_bool (const JsrJsonNode *object, const JsrJsonPath *path,
                                      const char *member, gboolean *out, GError **error);
/* A number from 0 to 1, < 0 when null or missing. */
gboolean jsr_json_read_fraction (const JsrJsonNode *object, const JsrJsonPath *path,
                                 const char *member, double *out, GError **error);

/* Containers: the node, or NULL with the error set. The optional ones
 * return NULL without an error when the member is null or missing: check
 * `*error` (or use a local GError) to tell the two apart. */
const JsrJsonNode *jsr_json_read_object (const JsrJsonNode *object, const JsrJsonPath *path,
                                         const char *member, GError **error);
const JsrJsonNode *jsr_json_read_array (const JsrJsonNode *object, const JsrJsonPath *path,
                                        const char *member, GError **error);
const JsrJsonNode *jsr_json_read_optional_object (const JsrJsonNode *object,
                                                  const JsrJsonPath *path, const char *member,
                                                  GError **error);
const JsrJsonNode *jsr_json_read_optional_array (const JsrJsonNode *object, const JsrJsonPath *path,
                                                 const char *member, GError **error);
/* Element i of an array, which must be an object; `path` is the element's. */
const JsrJsonNode *jsr_json_read_element (const JsrJsonNode *array, const JsrJsonPath *path,
                                          GError **error);

/* A copy of at most JSR_JSON_MAX_STRING bytes, not cut inside a UTF-8
 * sequence. */
char *jsr_json_copy_capped (const char *text);

G_END_DECLS
