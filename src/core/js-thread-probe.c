/* js-thread-probe.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-thread-probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

gboolean
js_thread_probe_open (JsThreadProbe *probe, pid_t tid, pthread_t thread, guint64 stack_lo,
                      guint64 stack_hi)
{
  char path[64];

  memset (probe, 0, sizeof *probe);
  probe->tid = tid;
  probe->stack_lo = stack_lo;
  probe->stack_hi = stack_hi;
  g_snprintf (path, sizeof path, "/proc/self/task/%d/status", (int) tid);
  probe->status_fd = open (path, O_RDONLY | O_CLOEXEC);
  g_snprintf (path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
  probe->syscall_fd = open (path, O_RDONLY | O_CLOEXEC);
  g_snprintf (path, sizeof path, "/proc/self/task/%d/schedstat", (int) tid);
  probe->schedstat_fd = open (path, O_RDONLY | O_CLOEXEC);
  probe->has_cpu_clock = pthread_getcpuclockid (thread, &probe->cpu_clock) == 0;
  if (probe->status_fd < 0 || probe->syscall_fd < 0)
    {
      js_thread_probe_close (probe);
      return FALSE;
    }
  return TRUE;
}

void
js_thread_probe_close (JsThreadProbe *probe)
{
  if (probe->status_fd > 0)
    close (probe->status_fd);
  if (probe->syscall_fd > 0)
    close (probe->syscall_fd);
  if (probe->schedstat_fd > 0)
    close (probe->schedstat_fd);
  probe->status_fd = probe->syscall_fd = probe->schedstat_fd = -1;
}

/* /proc files are regenerated on a read at offset 0: no reopen needed. */
static gssize
read_at_zero (int fd, char *buf, gsize size)
{
  gssize n;

  do
    n = pread (fd, buf, size - 1, 0);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return n;
}

static const char *
field (const char *text, const char *name)
{
  gsize len = strlen (name);

  for (const char *line = text; line != NULL && *line != '\0';)
    {
      if (strncmp (line, name, len) == 0 && line[len] == ':')
        return line + len + 1;
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return NULL;
}

gboolean
js_thread_probe_parse_status (const char *text, JsThreadSnapshot *out)
{
  const char *state = field (text, "State");
  const char *blocked = field (text, "SigBlk");
  const char *nvcsw = field (text, "voluntary_ctxt_switches");
  const char *pending = field (text, "SigPnd");

  if (state == NULL || blocked == NULL || nvcsw == NULL)
    return FALSE;
  while (*state == ' ' || *state == '\t')
    state++;
  if (*state < 'A' || *state > 'Z')
    return FALSE;
  out->state = *state;
  out->sig_blocked = g_ascii_strtoull (blocked, NULL, 16);
  out->sig_pending = pending != NULL ? g_ascii_strtoull (pending, NULL, 16) : G_MAXUINT64;
  out->nvcsw = g_ascii_strtoull (nvcsw, NULL, 10);
  return TRUE;
}

/* "running", or "NR ARG1 ... ARG6 SP PC" (hex but NR), or "-1 SP PC" when
 * blocked outside a system call. */
gboolean
js_thread_probe_parse_syscall (const char *text, JsThreadSnapshot *out)
{
  char *end = NULL;
  guint64 values[8];
  guint n = 0;
  const char *p;
  gint64 nr;

  out->blocked = FALSE;
  out->syscall_nr = -1;
  out->sp = out->pc = 0;
  memset (out->args, 0, sizeof out->args);
  if (g_str_has_prefix (text, "running"))
    return TRUE;
  nr = g_ascii_strtoll (text, &end, 10);
  if (end == text || nr < -1 || nr > 4096)
    return FALSE;
  for (p = end; n < G_N_ELEMENTS (values); p = end)
    {
      while (*p == ' ')
        p++;
      if (*p == '\0' || *p == '\n')
        break;
      values[n] = g_ascii_strtoull (p, &end, 16);
      if (end == p)
        return FALSE;
      n++;
    }
  if (nr >= 0 && n == 8)
    {
      memcpy (out->args, values, sizeof out->args);
      out->sp = values[6];
      out->pc = values[7];
    }
  else if (nr == -1 && n == 2)
    {
      out->sp = values[0];
      out->pc = values[1];
    }
  else
    return FALSE;
  out->blocked = TRUE;
  out->syscall_nr = (long) nr;
  return TRUE;
}

gboolean
js_thread_probe_read (JsThreadProbe *probe, JsThreadSnapshot *out)
{
  char buf[2048];

  memset (out, 0, sizeof *out);
  out->syscall_nr = -1;
  if (read_at_zero (probe->status_fd, buf, sizeof buf) <= 0
      || !js_thread_probe_parse_status (buf, out))
    return FALSE;
  if (read_at_zero (probe->syscall_fd, buf, sizeof buf) <= 0
      || !js_thread_probe_parse_syscall (buf, out))
    return FALSE;
  /* "running" with state S can happen between the two reads; trust syscall. */
  return TRUE;
}

gint64
js_thread_probe_cpu_ns (JsThreadProbe *probe, gint64 *runnable_ns)
{
  struct timespec ts;
  char buf[128];

  *runnable_ns = -1;
  /* schedstat: "run-time run-delay timeslices", both in ns, one read. */
  if (probe->schedstat_fd > 0 && read_at_zero (probe->schedstat_fd, buf, sizeof buf) > 0)
    {
      char *end = NULL;
      guint64 run = g_ascii_strtoull (buf, &end, 10);

      if (end != buf && *end == ' ')
        {
          char *end2 = NULL;
          guint64 delay = g_ascii_strtoull (end + 1, &end2, 10);

          if (end2 != end + 1)
            {
              *runnable_ns = (gint64) delay;
              return (gint64) run;
            }
        }
    }
  if (!probe->has_cpu_clock || clock_gettime (probe->cpu_clock, &ts) != 0)
    return -1;
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static JsWaitKind
fd_kind (guint64 fd)
{
  char path[64], target[128];
  gssize n;

  if (fd > G_MAXINT)
    return JS_WAIT_IO;
  g_snprintf (path, sizeof path, "/proc/self/fd/%d", (int) fd);
  n = readlink (path, target, sizeof target - 1);
  if (n <= 0)
    return JS_WAIT_IO;
  target[n] = '\0';
  if (g_str_has_prefix (target, "socket:") || g_str_has_prefix (target, "pipe:"))
    return JS_WAIT_IPC;
  return JS_WAIT_IO;
}

JsWaitKind
js_thread_probe_wait_kind (const JsThreadSnapshot *snap)
{
  if (!snap->blocked)
    return snap->state == 'D' ? JS_WAIT_IO : JS_WAIT_NONE;
  switch (snap->syscall_nr)
    {
#ifdef SYS_futex
    case SYS_futex:
#endif
#ifdef SYS_futex_waitv
    case SYS_futex_waitv:
#endif
      return JS_WAIT_LOCK;
#ifdef SYS_nanosleep
    case SYS_nanosleep:
#endif
    case SYS_clock_nanosleep:
#ifdef SYS_pause
    case SYS_pause:
#endif
      return JS_WAIT_SLEEP;
#ifdef SYS_poll
    case SYS_poll:
#endif
    case SYS_ppoll:
#ifdef SYS_select
    case SYS_select:
#endif
    case SYS_pselect6:
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
    case SYS_epoll_pwait:
      return JS_WAIT_POLL;
    case SYS_read:
    case SYS_write:
    case SYS_readv:
    case SYS_writev:
    case SYS_pread64:
    case SYS_pwrite64:
      return fd_kind (snap->args[0]);
    case SYS_recvfrom:
    case SYS_recvmsg:
    case SYS_sendto:
    case SYS_sendmsg:
    case SYS_connect:
#ifdef SYS_accept
    case SYS_accept:
#endif
    case SYS_accept4:
      return JS_WAIT_IPC;
    case SYS_wait4:
    case SYS_waitid:
      return JS_WAIT_CHILD;
#ifdef SYS_open
    case SYS_open:
#endif
    case SYS_openat:
    case SYS_fsync:
    case SYS_fdatasync:
    case SYS_sync:
    case SYS_syncfs:
#ifdef SYS_stat
    case SYS_stat:
    case SYS_lstat:
#endif
    case SYS_fstat:
    case SYS_newfstatat:
    case SYS_statx:
    case SYS_getdents64:
    case SYS_close:
    case SYS_unlinkat:
    case SYS_renameat2:
    case SYS_fallocate:
    case SYS_ftruncate:
      return JS_WAIT_IO;
    default:
      return snap->state == 'D' ? JS_WAIT_IO : JS_WAIT_OTHER;
    }
}

/* The target of /proc/self/fd/FD when it is a file's path ("socket:[N]",
 * "pipe:[N]", "anon_inode:..." are not). procfs answers from the kernel's
 * own tables: no I/O, nothing that waits on the blocked call. */
static gboolean
fd_path (gint64 fd, char *out, gsize size)
{
  char link[64];
  gssize n;

  if (fd < 0 || fd > G_MAXINT)
    return FALSE;
  g_snprintf (link, sizeof link, "/proc/self/fd/%d", (int) fd);
  n = readlink (link, out, size - 1);
  if (n <= 0)
    return FALSE;
  out[n] = '\0';
  return out[0] == '/';
}

/* A path argument of the blocked call, from the app's memory through
 * process_vm_readv (a bad or unmapped address gives an error, never a
 * fault; the copy is bounded and cut at a page's end, where the next page
 * may not be mapped). Relative paths are joined to the directory `dirfd`
 * names (AT_FDCWD: the current directory). */
static gboolean
path_arg (guint64 address, gint64 dirfd, char *out, gsize size)
{
  char buf[JS_THREAD_PROBE_MAX_PATH];
  char dir[JS_THREAD_PROBE_MAX_PATH];
  struct iovec local, remote;
  guint64 page = 4096, room = page - (address % page);
  gsize want = sizeof buf - 1;
  gssize n;
  char *end;

  if (address == 0)
    return FALSE;
  /* Two reads at most: up to the page's end, then the rest of the buffer. */
  local.iov_base = buf;
  local.iov_len = MIN (want, room);
  remote.iov_base = (void *) (guintptr) address;
  remote.iov_len = local.iov_len;
  n = process_vm_readv (getpid (), &local, 1, &remote, 1, 0);
  if (n <= 0)
    return FALSE;
  if (memchr (buf, '\0', (gsize) n) == NULL && (gsize) n < want)
    {
      gssize more;

      local.iov_base = buf + n;
      local.iov_len = want - (gsize) n;
      remote.iov_base = (void *) (guintptr) (address + (guint64) n);
      remote.iov_len = local.iov_len;
      more = process_vm_readv (getpid (), &local, 1, &remote, 1, 0);
      if (more > 0)
        n += more;
    }
  end = memchr (buf, '\0', (gsize) n);
  if (end == NULL || end == buf)
    return FALSE; /* empty, or longer than we read: not a path we can name */
  if (buf[0] == '/')
    {
      g_strlcpy (out, buf, size);
      return TRUE;
    }
  if (dirfd == AT_FDCWD)
    {
      gssize d = readlink ("/proc/self/cwd", dir, sizeof dir - 1);

      if (d <= 0)
        return FALSE;
      dir[d] = '\0';
    }
  else if (!fd_path (dirfd, dir, sizeof dir))
    return FALSE;
  g_snprintf (out, size, "%s%s%s", dir, g_str_has_suffix (dir, "/") ? "" : "/", buf);
  return TRUE;
}

gboolean
js_thread_probe_file_path (const JsThreadSnapshot *snap, char *out, gsize size)
{
  if (!snap->blocked || size == 0)
    return FALSE;
  out[0] = '\0';
  switch (snap->syscall_nr)
    {
    case SYS_read:
    case SYS_write:
    case SYS_readv:
    case SYS_writev:
    case SYS_pread64:
    case SYS_pwrite64:
    case SYS_fsync:
    case SYS_fdatasync:
    case SYS_fstat:
    case SYS_getdents64:
    case SYS_fallocate:
    case SYS_ftruncate:
    case SYS_close:
      return fd_path ((gint64) snap->args[0], out, size);
#ifdef SYS_open
    case SYS_open:
#endif
#ifdef SYS_stat
    case SYS_stat:
    case SYS_lstat:
#endif
#if defined(SYS_open) || defined(SYS_stat)
      return path_arg (snap->args[0], AT_FDCWD, out, size);
#endif
    case SYS_openat:
    case SYS_newfstatat:
    case SYS_statx:
    case SYS_unlinkat:
      /* The directory fd is an int: its 32 bits, sign-extended (AT_FDCWD). */
      return path_arg (snap->args[1], (gint64) (gint32) (guint32) snap->args[0], out, size);
    default:
      return FALSE;
    }
}

JsStackCopy *
js_thread_probe_copy_stack (JsThreadProbe *probe, const JsThreadSnapshot *snap, gsize max)
{
  JsStackCopy *copy;
  guint64 size = max;
  struct iovec local, remote;
  gssize n;

  if (!snap->blocked || snap->sp == 0)
    return NULL;
  if (probe->stack_hi != 0)
    {
      if (snap->sp < probe->stack_lo || snap->sp >= probe->stack_hi)
        return NULL; /* on another stack (sigaltstack, a coroutine): not ours to read */
      size = MIN (size, probe->stack_hi - snap->sp);
    }
  copy = g_malloc (sizeof *copy + size);
  local.iov_base = copy->data;
  local.iov_len = size;
  remote.iov_base = (void *) (guintptr) snap->sp;
  remote.iov_len = size;
  n = process_vm_readv (getpid (), &local, 1, &remote, 1, 0);
  if (n <= 0)
    {
      g_free (copy);
      return NULL;
    }
  copy->sp = snap->sp;
  copy->pc = snap->pc;
  copy->size = (guint32) n;
  return copy;
}
