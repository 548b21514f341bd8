/* sysprof-dump.c: a Sysprof capture as text, read with libsysprof-capture's
 * own SysprofCaptureReader (the independent reader of test_export.py)
 *
 *   sysprof-dump CAPTURE
 *
 * Prints one line per frame of interest, tab-separated:
 *   range START END
 *   process TIME PID CMDLINE
 *   mark TIME PID DURATION GROUP NAME MESSAGE
 *   sample TIME PID TID FRAME;FRAME;...   (leaf first, JIT-map names)
 * Exits 1 when the file is not a capture or a frame cannot be read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysprof-capture.h>

typedef struct
{
  SysprofCaptureAddress address;
  char *name;
} JitName;

static JitName *names;
static size_t n_names;

static void
read_jitmaps (SysprofCaptureReader *reader)
{
  SysprofCaptureFrameType type;

  while (sysprof_capture_reader_peek_type (reader, &type))
    {
      const SysprofCaptureJitmap *jitmap;
      const uint8_t *at;

      if (type != SYSPROF_CAPTURE_FRAME_JITMAP)
        {
          if (!sysprof_capture_reader_skip (reader))
            break;
          continue;
        }
      jitmap = sysprof_capture_reader_read_jitmap (reader);
      if (jitmap == NULL)
        {
          fprintf (stderr, "sysprof-dump: bad jitmap frame\n");
          exit (1);
        }
      /* n_jitmaps entries of (address, NUL-terminated name). */
      at = jitmap->data;
      for (uint32_t i = 0; i < jitmap->n_jitmaps; i++)
        {
          SysprofCaptureAddress address;

          memcpy (&address, at, sizeof address);
          at += sizeof address;
          names = realloc (names, (n_names + 1) * sizeof *names);
          names[n_names].address = address;
          names[n_names].name = strdup ((const char *) at);
          n_names++;
          at += strlen ((const char *) at) + 1;
        }
    }
}

static const char *
jit_name (SysprofCaptureAddress address)
{
  for (size_t i = 0; i < n_names; i++)
    if (names[i].address == address)
      return names[i].name;
  return "?";
}

int
main (int argc, char **argv)
{
  SysprofCaptureReader *reader;
  SysprofCaptureFrameType type;

  if (argc != 2)
    {
      fprintf (stderr, "usage: sysprof-dump CAPTURE\n");
      return 2;
    }
  reader = sysprof_capture_reader_new (argv[1]);
  if (reader == NULL)
    {
      fprintf (stderr, "sysprof-dump: %s: not a capture\n", argv[1]);
      return 1;
    }

  read_jitmaps (reader);
  sysprof_capture_reader_reset (reader);
  printf ("range\t%" PRId64 "\t%" PRId64 "\n", sysprof_capture_reader_get_start_time (reader),
          sysprof_capture_reader_get_end_time (reader));

  while (sysprof_capture_reader_peek_type (reader, &type))
    {
      switch (type)
        {
        case SYSPROF_CAPTURE_FRAME_PROCESS:
          {
            const SysprofCaptureProcess *p = sysprof_capture_reader_read_process (reader);

            if (p == NULL)
              goto bad;
            printf ("process\t%" PRId64 "\t%d\t%s\n", p->frame.time, p->frame.pid, p->cmdline);
          }
          break;
        case SYSPROF_CAPTURE_FRAME_MARK:
          {
            const SysprofCaptureMark *m = sysprof_capture_reader_read_mark (reader);

            if (m == NULL)
              goto bad;
            printf ("mark\t%" PRId64 "\t%d\t%" PRId64 "\t%s\t%s\t%s\n", m->frame.time, m->frame.pid,
                    m->duration, m->group, m->name, m->message);
          }
          break;
        case SYSPROF_CAPTURE_FRAME_SAMPLE:
          {
            const SysprofCaptureSample *s = sysprof_capture_reader_read_sample (reader);

            if (s == NULL)
              goto bad;
            printf ("sample\t%" PRId64 "\t%d\t%d\t", s->frame.time, s->frame.pid, s->tid);
            for (unsigned i = 0; i < s->n_addrs; i++)
              printf ("%s%s", i > 0 ? ";" : "", jit_name (s->addrs[i]));
            printf ("\n");
          }
          break;
        default:
          if (!sysprof_capture_reader_skip (reader))
            goto bad;
          break;
        }
    }

  sysprof_capture_reader_unref (reader);
  return 0;

bad:
  fprintf (stderr, "sysprof-dump: a frame of type %d cannot be read\n", type);
  return 1;
}
